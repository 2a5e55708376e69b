// `GET /assets?dataset_namespace=` lists one namespace's assets in id order.
CREATE INDEX asset_dataset_namespace IF NOT EXISTS FOR (a:Asset) ON (a.dataset_namespace)
