package ci

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/s3store"
)

// RunConfig is what Run does: Config's Dir, Options and the fields below
// it as for Index; Config.Store is the shared store, and "" there means
// $SNAP_STORE, else git's snap.store setting, else none.
type RunConfig struct {
	Config
	// Out is the local store's folder; "" is .snap/ at the repository root.
	Out string
	// FailOn are the conditions (FailConditions) that fail a pull request.
	FailOn []string
	// PushPR pushes pull requests' snapshots too.
	PushPR bool
	// CommentOnPR posts the diff on a GitHub pull request.
	CommentOnPR bool
	// Getenv reads the CI's environment (os.Getenv).
	Getenv func(string) string
	// Annotate is where GitHub workflow commands go: the step's stdout.
	Annotate io.Writer
}

// RunResult is what Run made.
type RunResult struct {
	Folder string // the snapshot's folder in the local store
	Failed string // why the gate fails (Failed); "" when it passes
}

// Run indexes the commit checked out at cfg.Dir as a CI job does: it
// reads the CI's environment (ReadEnv), finds the base snapshot (this
// branch's HEAD in the store, else the target's or the default
// branch's), pulls it and indexes against it. A push's snapshot is
// pushed and the branch's HEAD moves forward. A pull request is diffed
// against its target branch's snapshot, or its merge base indexed here:
// Markdown to $GITHUB_STEP_SUMMARY, JSON beside the local store, an
// annotation on each broken caller, a comment when asked; cfg.FailOn
// makes the diff a gate.
func Run(ctx context.Context, cfg RunConfig) (RunResult, error) {
	cfg.Config = cfg.Config.withDefaults()
	log, getenv, dir := cfg.Log, cfg.Getenv, cfg.Dir
	id := Detect(ctx, dir)
	id.ReadCommit(ctx)
	env := ReadEnv(ctx, id, getenv)
	if !id.Git {
		return RunResult{}, configErrorf("ci: %s is not a git checkout", dir)
	}
	if id.Commit == "" {
		return RunResult{}, configErrorf("ci: %s has no commit checked out", dir)
	}
	id.Repo, id.Branch, id.Commit = env.Repo, env.Branch, env.Commit
	if id.Dirty {
		log.Warn("the checkout has uncommitted changes; they are indexed under a -dirty commit", "commit", id.Commit)
	}
	if shallow, _ := Git(ctx, id.Root, "rev-parse", "--is-shallow-repository"); shallow == "true" {
		log.Warn("a shallow clone: ancestry comes from the snapshots' recorded parents only; set fetch-depth: 0 on actions/checkout so HEAD can always move forward")
	}
	local, err := OpenStore(ctx, cfg.Out, id.Root)
	if err != nil {
		return RunResult{}, err
	}
	var remote *Store
	if url := StoreURL(ctx, cfg.Store, id.Root, getenv); url != "" {
		r, err := OpenStore(ctx, url, id.Root)
		if err != nil {
			return RunResult{}, err
		}
		remote = &r
	}
	var remoteLabel string
	if remote != nil {
		remoteLabel = remote.Label
	}
	log.Info("ci", "provider", env.Provider, "event", env.Event, "repo", env.Repo, "branch", env.Branch,
		"commit", env.Commit, "base_branch", env.BaseBranch, "store", remoteLabel)

	// A pull request is diffed against its target branch's snapshot in
	// the store, else against its merge base, indexed here.
	pr := env.Event == "pull_request" && env.BaseBranch != ""
	var target string
	if pr {
		if target, err = fetchHead(ctx, log, remote, local, env.Repo, env.BaseBranch); err != nil {
			log.Warn("the target branch's snapshot cannot be read from the store", "branch", env.BaseBranch, "err", err)
			target = ""
		}
		if remote == nil || target == "" {
			if target, err = indexMergeBase(ctx, cfg.Config, id, env, local); err != nil {
				log.Warn("no snapshot of the target branch to diff against", "branch", env.BaseBranch, "err", err)
				target = ""
			}
		}
	}

	// The base: this branch's HEAD, else the target's or the default
	// branch's, pulled into the local store.
	var basePrefix, baseBranch string
	for _, b := range []string{env.Branch, env.BaseBranch, env.DefaultBranch} {
		if b == "" {
			continue
		}
		if b == env.BaseBranch && target != "" {
			basePrefix, baseBranch = target, b
			break
		}
		prefix, err := fetchHead(ctx, log, remote, local, env.Repo, b)
		if err != nil {
			log.Warn("no base from the store; indexing every file", "branch", b, "err", err)
			break
		}
		if prefix != "" {
			basePrefix, baseBranch = prefix, b
			break
		}
	}
	j := job{cfg: cfg.Config, dir: dir, id: id, store: local, opts: cfg.Options}
	if basePrefix != "" {
		start := time.Now()
		j.base, _ = loadBase(ctx, cfg.Config, local, basePrefix, baseBranch, false)
		j.baseRead = time.Since(start)
	}
	res, err := j.run(ctx)
	if err != nil {
		return RunResult{}, err
	}
	out := RunResult{Folder: res.Folder}
	m := res.Manifest
	outputs := map[string]string{
		"snapshot": res.Folder, "commit": m.Commit,
		"nodes": fmt.Sprint(m.Counts.Nodes), "edges": fmt.Sprint(m.Counts.Edges),
		"files": fmt.Sprint(m.Counts.Files), "files-parsed": fmt.Sprint(m.Build.FilesParsed),
		"broken": "0",
	}

	// Push.
	pushed := ""
	switch {
	case remote == nil:
		log.Info("no store named: the snapshot stays in the local folder, for an artifact", "folder", res.Folder)
	case env.Event == "pull_request" && !cfg.PushPR:
		log.Info("a pull request: not pushed (pass --push-pr to push it)")
	default:
		if err := push(ctx, log, local, *remote, id, res.Prefix); err != nil {
			if errors.Is(err, s3store.ErrAccessDenied) && env.Event == "pull_request" {
				log.Warn("the store refuses this run's credentials (a pull request from a fork has no secrets): not pushed", "err", err)
			} else {
				return RunResult{}, err
			}
		} else {
			pushed = remote.Label
		}
	}
	summary := indexSummary(env, m, pushed, res.Folder)

	// Diff a pull request against its target.
	if pr && target != "" {
		d, err := Diff(ctx, Source{Store: local, Prefix: target, Label: target}, Source{Store: local, Prefix: res.Prefix, Label: res.Prefix}, query.DiffOptions{})
		if err != nil {
			return RunResult{}, err
		}
		path := filepath.Join(local.Dir, "snap-diff.json")
		raw, _ := json.MarshalIndent(d, "", "  ")
		if err := os.WriteFile(path, append(raw, '\n'), 0o644); err != nil {
			return RunResult{}, err
		}
		outputs["diff-json"], outputs["broken"] = path, fmt.Sprint(d.Summary.Broken)
		labels := [2]string{env.BaseBranch, env.Branch}
		md := DiffMarkdown(d, labels, "snap diff --json "+labels[0]+" "+labels[1])
		summary = md + "\n" + summary
		out.Failed = Failed(d, cfg.FailOn)
		if env.Provider == "github" && cfg.Annotate != nil {
			level := "warning"
			if slices.Contains(cfg.FailOn, "broken") {
				level = "error"
			}
			abs, _ := filepath.Abs(dir)
			rel, _ := filepath.Rel(id.Root, abs)
			annotate(cfg.Annotate, level, rel, d, maxAnnotations)
		}
		if cfg.CommentOnPR {
			switch {
			case env.Provider != "github" || env.PR == 0:
				log.Warn("--comment-on-pr: not a GitHub pull request; no comment")
			default:
				token := cmp.Or(getenv("SNAP_GITHUB_TOKEN"), getenv("GITHUB_TOKEN"))
				url, err := prComment(ctx, cmp.Or(getenv("GITHUB_API_URL"), "https://api.github.com"), token, env.Repo, env.PR, md)
				if err != nil {
					// A fork's pull request gets a read-only token: the
					// summary still carries the diff.
					log.Warn("no pull request comment", "err", err)
				} else {
					log.Info("commented", "url", url)
				}
			}
		}
		log.Info("diffed", "against", env.BaseBranch, "symbols", len(d.Symbols), "broken", d.Summary.Broken, "impacted", d.Summary.Impacted)
	}
	if err := appendFile(getenv("GITHUB_STEP_SUMMARY"), summary); err != nil {
		return RunResult{}, err
	}
	if err := writeOutputs(getenv("GITHUB_OUTPUT"), outputs); err != nil {
		return RunResult{}, err
	}
	return out, nil
}

// indexMergeBase makes a snapshot of the commit a pull request's changes
// are measured from — the merge base of HEAD and the target branch — in
// local, under the target branch, and returns its prefix. It is indexed
// in a temporary worktree (incrementally against what local holds of the
// target branch, such as a cache restored from an earlier run), and
// nothing is pushed. A snapshot of that commit already in local is used
// as it is.
func indexMergeBase(ctx context.Context, cfg Config, id Identity, env Env, local Store) (string, error) {
	log := cfg.Log
	sha, err := mergeBase(ctx, id.Root, env)
	if err != nil {
		return "", err
	}
	// What the local store holds of the target branch: the merge base
	// itself, or a base to index it against.
	held, err := fetchHead(ctx, log, nil, local, env.Repo, env.BaseBranch)
	if err != nil {
		held = ""
	}
	if held != "" {
		if m, _, err := snapshot.ReadManifest(ctx, local, held); err == nil && snapshot.GitCommit(m.Commit) == sha {
			log.Info("the merge base's snapshot is in the local store", "commit", sha)
			return held, nil
		}
	}
	tmp, err := os.MkdirTemp("", "snap-base-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	wt := filepath.Join(tmp, "worktree")
	if out, err := exec.CommandContext(ctx, "git", "-C", id.Root, "worktree", "add", "-q", "--detach", wt, sha).CombinedOutput(); err != nil {
		return "", fmt.Errorf("check out the merge base %s: %v: %s", sha, err, strings.TrimSpace(string(out)))
	}
	defer exec.Command("git", "-C", id.Root, "worktree", "remove", "--force", wt).Run()
	bid := Identity{Root: wt, Repo: env.Repo, Branch: env.BaseBranch, Git: true}
	bid.ReadCommit(ctx) // sha, its parents
	j := job{cfg: cfg, dir: wt, id: bid, store: local, opts: cfg.Options}
	if held != "" {
		j.base, _ = loadBase(ctx, cfg, local, held, env.BaseBranch, false)
	}
	log.Info("indexing the merge base", "branch", env.BaseBranch, "commit", sha)
	res, err := j.run(ctx)
	if err != nil {
		return "", fmt.Errorf("index the merge base %s: %w", sha, err)
	}
	return res.Prefix, nil
}

// appendFile appends text to the file at path; nothing when path is "".
func appendFile(path, text string) error {
	if path == "" {
		return nil
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.WriteString(text); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// writeOutputs appends name=value lines to $GITHUB_OUTPUT's file, path.
func writeOutputs(path string, outputs map[string]string) error {
	var b strings.Builder
	keys := make([]string, 0, len(outputs))
	for k := range outputs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "%s=%s\n", k, outputs[k])
	}
	return appendFile(path, b.String())
}
