// At most one asset holds a physical dataset: `dataset_key` is its normalised
// namespace, a newline, and its normalised name (service.domain.datasets).
CREATE CONSTRAINT asset_dataset_key IF NOT EXISTS FOR (a:Asset) REQUIRE a.dataset_key IS UNIQUE
