// `GET /assets?q=` finds its candidates here instead of reading every asset:
// a Lucene index over the three searched properties. No stop words (a search
// for "the" must still find "the_orders"), and updated at commit so a search
// right after a write sees it, as the old scan did.
CREATE FULLTEXT INDEX asset_text IF NOT EXISTS
FOR (a:Asset) ON EACH [a.id, a.name, a.description]
OPTIONS {indexConfig: {`fulltext.analyzer`: 'standard-no-stop-words', `fulltext.eventually_consistent`: false}}
