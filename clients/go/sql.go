package governance

import (
	"context"
	"net/http"
)

// SQLRequest is SQL to read as lineage: exactly one of SQL (one statement,
// or a script of statements separated by ";") and Statements (a query log),
// 1 to 10,000 statements either way.
type SQLRequest struct {
	// Dialect is the sqlglot dialect: snowflake, bigquery, postgres,
	// redshift, mysql, trino, duckdb, databricks, spark, hive, tsql, ...
	Dialect string `json:"dialect"`
	// Namespace is where the tables live, as OpenLineage names it (such as
	// "snowflake://acme-prod"): each table db.schema.table is the [Dataset]
	// (Namespace, db.schema.table), resolved to the asset holding it.
	Namespace string `json:"namespace"`
	// DefaultDatabase and DefaultSchema fill a table name's missing
	// database (catalog, project) and schema (dataset).
	DefaultDatabase string `json:"default_database,omitempty"`
	DefaultSchema   string `json:"default_schema,omitempty"`
	// Source names this writer, such as a query log's or a job's name: the
	// edges' origin is "sql:<source>" (empty: "api").
	Source     string         `json:"source,omitempty"`
	SQL        string         `json:"sql,omitempty"`
	Statements []SQLStatement `json:"statements,omitempty"`
}

// SQLStatement is one entry of a query log, as a warehouse's query history
// exports it; only SQL is required.
type SQLStatement struct {
	SQL     string `json:"sql"`
	QueryID string `json:"query_id,omitempty"`
	User    string `json:"user,omitempty"`
	// Timestamp is kept as given, in the log's own format.
	Timestamp string `json:"timestamp,omitempty"`
}

// SQLResult is the answer of an SQL ingestion.
type SQLResult struct {
	// Origin is the edges' origin, "sql:<source>".
	Origin     string             `json:"origin"`
	Statements SQLStatementCounts `json:"statements"`
	// Edges and ColumnMappings count what was new and what existed.
	Edges          Counts `json:"edges"`
	ColumnMappings Counts `json:"column_mappings"`
	// AssetsCreated counts placeholders made for tables no asset holds.
	AssetsCreated int          `json:"assets_created"`
	Failures      []SQLFailure `json:"failures"`
	Warnings      []string     `json:"warnings"`
}

// SQLStatementCounts tells what became of the statements.
type SQLStatementCounts struct {
	Received int `json:"received"`
	// WithLineage counts statements that write a table from others.
	WithLineage int `json:"with_lineage"`
	// WithoutLineage counts reads and DDL: parsed, nothing to write.
	WithoutLineage int `json:"without_lineage"`
	// Failed counts statements not parsed or not resolved; see Failures.
	Failed int `json:"failed"`
}

// SQLFailure is a statement that was not read, and wrote nothing.
type SQLFailure struct {
	// Index is the statement's position, from 0.
	Index int `json:"index"`
	// Message is why: the parser's or resolver's words.
	Message string `json:"message"`
	// QueryID is the statement's, when the query log gave one.
	QueryID string `json:"query_id,omitempty"`
}

// IngestSQL reads SQL as table and column lineage (POST /lineage/sql). A
// statement that writes a table from others (INSERT ... SELECT, CREATE
// TABLE/VIEW AS, MERGE, UPDATE ... FROM) makes an edge from each table read
// to the table written, with the statement as its transformation, and column
// mappings; each table is the dataset (Namespace, name), resolved to the
// asset holding it (a dbt model, an OpenLineage dataset, an API asset), a
// placeholder when none does. Reads and DDL are counted and write nothing. A
// statement that does not parse, or whose tables cannot be named, is listed
// in Failures and writes nothing; the others are written in one
// transaction. An unknown dialect, or both or neither of SQL and Statements,
// fails with [ErrValidation]. Writing the same SQL again changes nothing, so
// the request is retried like other POSTs.
func (s *LineageService) IngestSQL(ctx context.Context, req SQLRequest, ro ...RequestOption) (*SQLResult, *Response, error) {
	return sendFor[SQLResult](ctx, s.c, call{method: http.MethodPost, path: "/lineage/sql", body: req, opts: ro})
}
