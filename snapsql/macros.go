package snapsql

// macros are the helpers of a DB of one snapshot: the shapes an agent
// asks for most, written once. Ids are cast, so an id may be given as a
// number or as a string.
const macros = `
CREATE MACRO symbol(q) AS TABLE
  SELECT * FROM nodes WHERE qualified_name = q OR name = q
  ORDER BY qualified_name, file, id;

CREATE MACRO callers(target) AS TABLE
  SELECT n.id, n.kind, n.qualified_name, e.file, e.line, e.col
  FROM edges e JOIN nodes n ON n.id = e.src
  WHERE e.kind = 'calls' AND e.dst = CAST(target AS UBIGINT)
  ORDER BY e.file, e.line, e.col, n.id;

CREATE MACRO callees(source) AS TABLE
  SELECT e.dst AS id, n.kind, coalesce(n.qualified_name, e.target) AS qualified_name, e.file, e.line, e.col, e.resolution
  FROM edges e LEFT JOIN nodes n ON n.id = e.dst
  WHERE e.kind = 'calls' AND e.src = CAST(source AS UBIGINT)
  ORDER BY e.file, e.line, e.col, e.dst;

CREATE MACRO reach(start, max_depth) AS TABLE
  WITH RECURSIVE r(id, depth) AS (
    SELECT CAST(start AS UBIGINT), 0
    UNION
    SELECT e.dst, r.depth + 1 FROM r JOIN edges e ON e.src = r.id
    WHERE e.kind = 'calls' AND e.dst <> 0 AND r.depth < max_depth)
  SELECT n.id, min(r.depth) AS depth, n.kind, n.qualified_name, n.file, n.start_line
  FROM r JOIN nodes n ON n.id = r.id
  GROUP BY ALL ORDER BY depth, n.qualified_name, n.id;

CREATE MACRO reached_by(start, max_depth) AS TABLE
  WITH RECURSIVE r(id, depth) AS (
    SELECT CAST(start AS UBIGINT), 0
    UNION
    SELECT e.src, r.depth + 1 FROM r JOIN edges e ON e.dst = r.id
    WHERE e.kind = 'calls' AND r.depth < max_depth)
  SELECT n.id, min(r.depth) AS depth, n.kind, n.qualified_name, n.file, n.start_line
  FROM r JOIN nodes n ON n.id = r.id
  GROUP BY ALL ORDER BY depth, n.qualified_name, n.id;
`

// storeMacros are the same helpers over every snapshot of a store
// (OpenStore): nodes and edges are the heads', and each answer names the
// repository and branch.
const storeMacros = `
CREATE MACRO symbol(q) AS TABLE
  SELECT * FROM nodes WHERE qualified_name = q OR name = q
  ORDER BY repo, branch, qualified_name, file, id;

CREATE MACRO callers(target) AS TABLE
  SELECT e.repo, e.branch, n.id, n.kind, n.qualified_name, e.file, e.line, e.col
  FROM edges e JOIN nodes n ON n.repo = e.repo AND n.branch = e.branch AND n.commit = e.commit AND n.id = e.src
  WHERE e.kind = 'calls' AND e.dst = CAST(target AS UBIGINT)
  ORDER BY e.repo, e.branch, e.file, e.line, e.col, n.id;

CREATE MACRO callees(source) AS TABLE
  SELECT e.repo, e.branch, e.dst AS id, n.kind, coalesce(n.qualified_name, e.target) AS qualified_name, e.file, e.line, e.col, e.resolution
  FROM edges e LEFT JOIN nodes n ON n.repo = e.repo AND n.branch = e.branch AND n.commit = e.commit AND n.id = e.dst
  WHERE e.kind = 'calls' AND e.src = CAST(source AS UBIGINT)
  ORDER BY e.repo, e.branch, e.file, e.line, e.col, e.dst;

CREATE MACRO reach(start, max_depth) AS TABLE
  WITH RECURSIVE r(repo, branch, commit, id, depth) AS (
    SELECT repo, branch, commit, id, 0 FROM nodes WHERE id = CAST(start AS UBIGINT)
    UNION
    SELECT r.repo, r.branch, r.commit, e.dst, r.depth + 1
    FROM r JOIN edges e ON e.repo = r.repo AND e.branch = r.branch AND e.commit = r.commit AND e.src = r.id
    WHERE e.kind = 'calls' AND e.dst <> 0 AND r.depth < max_depth)
  SELECT n.repo, n.branch, n.id, min(r.depth) AS depth, n.kind, n.qualified_name, n.file, n.start_line
  FROM r JOIN nodes n USING (repo, branch, commit, id)
  GROUP BY ALL ORDER BY n.repo, n.branch, depth, n.qualified_name, n.id;

CREATE MACRO reached_by(start, max_depth) AS TABLE
  WITH RECURSIVE r(repo, branch, commit, id, depth) AS (
    SELECT repo, branch, commit, id, 0 FROM nodes WHERE id = CAST(start AS UBIGINT)
    UNION
    SELECT r.repo, r.branch, r.commit, e.src, r.depth + 1
    FROM r JOIN edges e ON e.repo = r.repo AND e.branch = r.branch AND e.commit = r.commit AND e.dst = r.id
    WHERE e.kind = 'calls' AND r.depth < max_depth)
  SELECT n.repo, n.branch, n.id, min(r.depth) AS depth, n.kind, n.qualified_name, n.file, n.start_line
  FROM r JOIN nodes n USING (repo, branch, commit, id)
  GROUP BY ALL ORDER BY n.repo, n.branch, depth, n.qualified_name, n.id;
`

// storeViews are the views of docs/sql.md over every snapshot of a
// store: each branch's newest snapshot, the one its HEAD.json names.
const storeViews = `
CREATE VIEW nodes AS SELECT * FROM all_nodes SEMI JOIN heads USING (repo, branch, commit);
CREATE VIEW edges AS SELECT * FROM all_edges SEMI JOIN heads USING (repo, branch, commit);
CREATE VIEW files AS SELECT * FROM all_files SEMI JOIN heads USING (repo, branch, commit);
`
