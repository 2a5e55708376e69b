"""Which table a statement writes, and the query whose output columns land in it.

Every write is reduced to one query plus a rule for naming the target column each
output column lands in, so one tracer serves them all:

- INSERT (OVERWRITE) ... SELECT, CREATE TABLE/VIEW AS, SELECT ... INTO: the query
  itself; its columns land by position in the listed columns, else (INSERT) in the
  target's stored columns, else (and for INSERT ... BY NAME) by their own names.
- MERGE and UPDATE have no such query, so one is built: `SELECT <each assigned
  expression> AS __set_<i> FROM <source> CROSS JOIN <target>`, each alias standing for
  the column it assigns (`SET *` / `INSERT *` become `source.*`, landing by name).
- CREATE TABLE ... CLONE s: `SELECT * FROM s`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from sqlglot import exp

_SET_ALIAS = "__set_"


@dataclass
class Plan:
    """The query to trace and how its output columns name target columns: `columns`
    by position, or `renamed` (a synthetic alias -> the column it assigns), or, with
    neither, by name (`stored_order`: the target's stored columns by position first)."""

    query: exp.Query | None
    columns: tuple[str, ...] | None = None
    renamed: dict[str, str] = field(default_factory=dict)
    stored_order: bool = False
    warnings: list[str] = field(default_factory=list)


def target_of(statement: exp.Expr) -> exp.Table | None:
    """The table a statement writes rows into, or None (a read, DDL, or anything else)."""
    if isinstance(statement, exp.Insert):
        return _table(statement.this)
    if isinstance(statement, exp.Create) and _creates_relation(statement):
        if _query(statement.expression) is not None or _clone_of(statement) is not None:
            return _table(statement.this)
        return None
    if isinstance(statement, exp.Select) and isinstance(statement.args.get("into"), exp.Into):
        return _table(statement.args["into"].this)
    if isinstance(statement, exp.Merge):
        return _table(statement.this)
    if isinstance(statement, exp.Update):
        return _update_target(statement)
    return None


def plan(statement: exp.Expr) -> Plan:
    """The query to trace for a statement `target_of` found a target in. It takes
    parts of `statement` over, so pass a copy that is not needed afterwards."""
    if isinstance(statement, exp.Insert):
        query = _with(statement, _query(statement.expression))
        listed = statement.this if isinstance(statement.this, exp.Schema) else None
        if statement.args.get("by_name"):  # DuckDB's INSERT ... BY NAME
            return Plan(query)
        if listed is None:
            return Plan(query, stored_order=True)
        return Plan(query, columns=tuple(e.name for e in listed.expressions))
    if isinstance(statement, exp.Create):
        clone = _clone_of(statement)
        if clone is not None:
            return Plan(exp.select("*").from_(clone))
        listed = statement.this if isinstance(statement.this, exp.Schema) else None
        names = tuple(e.name for e in listed.expressions) if listed is not None else None
        return Plan(_query(statement.expression), columns=names or None)
    if isinstance(statement, exp.Select):
        statement.set("into", None)
        return Plan(statement)
    if isinstance(statement, exp.Merge):
        return _merge(statement)
    if isinstance(statement, exp.Update):
        return _update(statement)
    return Plan(None)


def _table(node: exp.Expr | None) -> exp.Table | None:
    if isinstance(node, exp.Schema):
        node = node.this
    if isinstance(node, exp.Table) and isinstance(node.this, exp.Identifier):
        return node
    return None


def _creates_relation(create: exp.Create) -> bool:
    kind = (create.kind or "").upper()
    return kind.endswith("TABLE") or kind.endswith("VIEW")


def _clone_of(create: exp.Create) -> exp.Table | None:
    clone = create.args.get("clone")
    return _table(clone.this) if isinstance(clone, exp.Clone) else None


def _query(node: exp.Expr | None) -> exp.Query | None:
    while isinstance(node, exp.Subquery):
        node = node.this
    return node if isinstance(node, exp.Query) else None


def _with(statement: exp.Expr, query: exp.Query | None) -> exp.Query | None:
    """A CTE written before the write (`WITH c AS (...) INSERT ...`) belongs to its query."""
    outer = statement.args.get("with_")
    if query is None or not isinstance(outer, exp.With):
        return query
    inner = query.args.get("with_")
    if isinstance(inner, exp.With):
        outer.set("expressions", [*outer.expressions, *inner.expressions])
    query.set("with_", outer)
    return query


def _update_target(update: exp.Update) -> exp.Table | None:
    """T-SQL writes `UPDATE o SET ... FROM orders o`: the target is the aliased table."""
    named = _table(update.this)
    if named is None or named.db:
        return named
    for source in _from_items(update):
        if isinstance(source, exp.Table) and source.alias_or_name.lower() == named.name.lower():
            return _table(source)
    return named


def _from_items(update: exp.Update) -> list[exp.Expr]:
    from_ = update.args.get("from_")
    if not isinstance(from_, exp.From):
        return []
    first = from_.this
    return [first, *(join.this for join in first.args.get("joins") or [])]


def _assignments(items: Sequence[exp.Expr], source: str, plan: Plan) -> list[exp.Expr]:
    """SET a = x, b = y -> [x AS __set_i, y AS __set_j]; `*` -> `source.*`."""
    projections: list[exp.Expr] = []
    for item in items:
        if isinstance(item, exp.Star):
            projections.append(exp.column(exp.Star(), table=source))
        elif isinstance(item, exp.EQ) and isinstance(item.this, exp.Column):
            alias = f"{_SET_ALIAS}{len(plan.renamed)}"
            plan.renamed[alias] = item.this.name
            # Quoted, so that no dialect's case rule renames it before it is looked up.
            name = exp.to_identifier(alias, quoted=True)
            projections.append(exp.alias_(item.expression, name, copy=False))
    return projections


def _merge(merge: exp.Merge) -> Plan:
    using = merge.args["using"]
    source = using.alias_or_name
    result = Plan(None)
    projections: list[exp.Expr] = []
    whens = merge.args.get("whens")
    for when in whens.expressions if isinstance(whens, exp.Whens) else []:
        then = when.args.get("then")
        if isinstance(then, exp.Update):
            projections += _assignments(then.expressions, source, result)
        elif isinstance(then, exp.Insert):
            projections += _merge_insert(then, source, result)
    if projections:
        select = exp.Select(expressions=projections, from_=exp.From(this=using))
        select.set("joins", [exp.Join(this=merge.this, kind="CROSS")])
        result.query = _with(merge, select)
    return result


def _merge_insert(insert: exp.Insert, source: str, plan: Plan) -> list[exp.Expr]:
    if isinstance(insert.this, exp.Star):
        return _assignments([insert.this], source, plan)
    columns = insert.this.expressions if isinstance(insert.this, exp.Tuple) else []
    values = insert.expression.expressions if isinstance(insert.expression, exp.Tuple) else []
    if not columns and values:
        plan.warnings.append("a MERGE INSERT without a column list is not traced")
    pairs = [exp.EQ(this=c, expression=v) for c, v in zip(columns, values, strict=False)]
    return _assignments(pairs, source, plan)


def _update(update: exp.Update) -> Plan:
    """FROM the target, then what it is joined with. T-SQL names the target in its FROM
    already (`UPDATE o ... FROM orders o JOIN s`), MySQL joins in the target's place
    (`UPDATE a JOIN b ON ... SET`); the FROM's and the target's joins are lifted to the
    SELECT, where scopes look for them."""
    result = Plan(None)
    named = update.this
    projections = _assignments(update.expressions, named.alias_or_name, result)
    if not projections:
        return result
    from_ = update.args.get("from_")
    listed = from_.this if isinstance(from_, exp.From) else None
    joins: list[exp.Expr] = []
    if listed is not None and _update_target(update) is not named:
        first = listed
    else:
        first = named
        if listed is not None:
            joins.append(exp.Join(this=listed, kind="CROSS"))
    for node in (named, listed):
        if node is not None:
            joins += node.args.get("joins") or []
            node.set("joins", None)
    select = exp.Select(expressions=projections, from_=exp.From(this=first), joins=joins)
    result.query = _with(update, select)
    return result


def target_alias(statement: exp.Expr) -> exp.Table | None:
    """`o` in T-SQL's `UPDATE o ... FROM orders o`: a name that is no table of its own."""
    if isinstance(statement, exp.Update) and _update_target(statement) is not statement.this:
        return _table(statement.this)
    return None
