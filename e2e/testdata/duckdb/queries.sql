-- The DuckDB queries of docs/dataset.md over a snap store, run by TestDuckDB
-- (e2e/duckdb_test.go) with {store} replaced by the store's folder; over a
-- bucket, {store} is s3://BUCKET/PREFIX (see docs/dataset.md). TestDocsSQL
-- holds the page's queries to these. The store is
-- hive-partitioned by repo, branch and commit; the partition values are
-- URL-escaped in the keys and read back unescaped (example/shop).
-- hive_types_autocast = false keeps every partition value a string (a
-- branch named 2024 stays '2024').

-- The newest snapshot of every branch: what HEAD.json names.
CREATE VIEW heads AS
SELECT repo, branch, commit
FROM read_json('{store}/repo=*/branch=*/HEAD.json', hive_partitioning = true, hive_types_autocast = false);

-- Every snapshot (all commits): its manifest, read without a table.
CREATE VIEW manifests AS
SELECT * FROM read_json('{store}/repo=*/branch=*/commit=*/manifest.json', hive_partitioning = true, hive_types_autocast = false);

-- Every snapshot's tables (all commits), and the same kept to the heads.
CREATE VIEW all_nodes AS
SELECT * FROM read_parquet('{store}/repo=*/branch=*/commit=*/nodes.parquet', hive_partitioning = true, hive_types_autocast = false);
CREATE VIEW all_edges AS
SELECT * FROM read_parquet('{store}/repo=*/branch=*/commit=*/edges.parquet', hive_partitioning = true, hive_types_autocast = false);
CREATE VIEW all_files AS
SELECT * FROM read_parquet('{store}/repo=*/branch=*/commit=*/files.parquet', hive_partitioning = true, hive_types_autocast = false);
CREATE VIEW nodes AS SELECT * FROM all_nodes SEMI JOIN heads USING (repo, branch, commit);
CREATE VIEW edges AS SELECT * FROM all_edges SEMI JOIN heads USING (repo, branch, commit);
CREATE VIEW files AS SELECT * FROM all_files SEMI JOIN heads USING (repo, branch, commit);

-- name: snapshots
-- Every snapshot in the store and its number of symbols.
SELECT repo, branch, commit, count(*) AS nodes
FROM all_nodes
GROUP BY ALL
ORDER BY ALL;

-- name: heads
SELECT * FROM heads ORDER BY ALL;

-- name: files_per_language
-- Files per language in the newest snapshot of every branch.
SELECT repo, branch, language, count(*) AS files
FROM files
WHERE language <> ''
GROUP BY ALL
ORDER BY repo, branch, files DESC, language;

-- name: most_called
-- The most called symbols: call edges joined to the nodes they reach.
SELECT e.repo, e.branch, CAST(n.id AS VARCHAR) AS id, n.qualified_name, n.file, count(*) AS calls
FROM edges e
JOIN nodes n ON n.repo = e.repo AND n.branch = e.branch AND n.commit = e.commit AND n.id = e.dst
WHERE e.kind = 'calls'
GROUP BY ALL
ORDER BY calls DESC, n.qualified_name
LIMIT 10;

-- name: unresolved
-- Why references stayed unresolved (dst = 0), per branch.
SELECT repo, branch, coalesce(nullif(reason, ''), resolution) AS reason, count(*) AS edges
FROM edges
WHERE dst = 0
GROUP BY ALL
ORDER BY repo, branch, edges DESC, reason;

-- name: added_symbols
-- Over time: the symbols of each branch's newest snapshot that none of its
-- earlier snapshots has (ids are stable across commits), for the branches
-- with more than one snapshot.
SELECT n.repo, n.branch, n.kind, n.qualified_name
FROM nodes n
ANTI JOIN (SELECT DISTINCT repo, branch, id FROM all_nodes ANTI JOIN heads USING (repo, branch, commit)) earlier
  USING (repo, branch, id)
WHERE (n.repo, n.branch) IN (SELECT repo, branch FROM manifests GROUP BY ALL HAVING count(*) > 1)
ORDER BY ALL;
