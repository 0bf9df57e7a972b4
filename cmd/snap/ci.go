package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"github.com/graphsnap/snap/indexer"
	"github.com/graphsnap/snap/query"
	"github.com/graphsnap/snap/schemas"
	"github.com/graphsnap/snap/snapshot"
	"github.com/graphsnap/snap/snapshot/s3store"
)

// ciEnv is what a CI run is about, read from the CI's environment.
type ciEnv struct {
	Provider      string // github, gitlab or git
	Repo          string
	Branch        string // the branch pushed, or the pull request's head branch
	Commit        string
	Event         string // push, pull_request or local
	BaseBranch    string // a pull request's target branch
	DefaultBranch string
	PR            int // a pull request's number, when known
}

// readCI reads GitHub Actions' or GitLab CI's variables, else git's view
// of the checkout id.
func readCI(ctx context.Context, id identity) ciEnv {
	e := ciEnv{Provider: "git", Repo: id.Repo, Branch: id.Branch, Commit: id.Commit, Event: "local"}
	switch {
	case os.Getenv("GITHUB_ACTIONS") == "true":
		e.Provider = "github"
		e.Repo = cmpOr(os.Getenv("GITHUB_REPOSITORY"), e.Repo)
		e.Commit = cmpOr(os.Getenv("GITHUB_SHA"), e.Commit)
		e.Event = "push"
		var ev struct {
			Number      int `json:"number"`
			PullRequest struct {
				Head struct {
					SHA string `json:"sha"`
				} `json:"head"`
			} `json:"pull_request"`
			Repository struct {
				DefaultBranch string `json:"default_branch"`
			} `json:"repository"`
		}
		if raw, err := os.ReadFile(os.Getenv("GITHUB_EVENT_PATH")); err == nil {
			json.Unmarshal(raw, &ev)
		}
		e.DefaultBranch = ev.Repository.DefaultBranch
		if name := os.Getenv("GITHUB_EVENT_NAME"); name == "pull_request" || name == "pull_request_target" {
			e.Event, e.PR = "pull_request", ev.Number
			e.Branch = os.Getenv("GITHUB_HEAD_REF")
			e.BaseBranch = os.Getenv("GITHUB_BASE_REF")
			// The checkout is the merge commit; the snapshot is filed under
			// it, on the head branch.
		} else {
			e.Branch = cmpOr(os.Getenv("GITHUB_REF_NAME"), e.Branch)
		}
	case os.Getenv("GITLAB_CI") == "true":
		e.Provider = "gitlab"
		e.Repo = cmpOr(os.Getenv("CI_PROJECT_PATH"), e.Repo)
		e.Commit = cmpOr(os.Getenv("CI_COMMIT_SHA"), e.Commit)
		e.DefaultBranch = os.Getenv("CI_DEFAULT_BRANCH")
		e.Event = "push"
		if t := os.Getenv("CI_MERGE_REQUEST_TARGET_BRANCH_NAME"); t != "" {
			e.Event, e.BaseBranch = "pull_request", t
			e.Branch = cmpOr(os.Getenv("CI_MERGE_REQUEST_SOURCE_BRANCH_NAME"), e.Branch)
			fmt.Sscan(os.Getenv("CI_MERGE_REQUEST_IID"), &e.PR)
		} else {
			e.Branch = cmpOr(os.Getenv("CI_COMMIT_BRANCH"), cmpOr(os.Getenv("CI_COMMIT_REF_NAME"), e.Branch))
		}
	}
	if e.DefaultBranch == "" {
		if ref, err := git(ctx, id.Root, "symbolic-ref", "--short", "-q", "refs/remotes/origin/HEAD"); err == nil {
			e.DefaultBranch = strings.TrimPrefix(ref, "origin/")
		}
	}
	return e
}

func ciCommand(log *slog.Logger) *cli.Command {
	return &cli.Command{
		Name:      "ci",
		Usage:     "index this commit in CI against the last snapshot, push it, and diff a pull request",
		UsageText: "snap ci [--store URL] [--out FOLDER] [--fail-on CONDITIONS] [--push-pr] [--comment-on-pr] [--languages LANGUAGES] [--exclude GLOB ...] [PATH]",
		ArgsUsage: "[PATH]",
		Description: "Reads the CI's environment (GitHub Actions, GitLab CI, else git), finds the base\n" +
			"snapshot (this branch's HEAD in the store, else the default branch's), pulls it\n" +
			"and indexes incrementally against it. On a push the snapshot is pushed and the\n" +
			"branch's HEAD moves (forward only). On a pull request the target branch's\n" +
			"snapshot is diffed against this one: Markdown to $GITHUB_STEP_SUMMARY, JSON to\n" +
			"--out/snap-diff.json; --fail-on turns the diff into a gate. Outputs go to\n" +
			"$GITHUB_OUTPUT (snapshot, commit, nodes, edges, files, diff-json). Without a store\n" +
			"the snapshot stays in --out for the workflow to upload as an artifact.\n\n" +
			"Examples:\n  snap ci --store s3://code-graphs/snap\n  snap ci --out snap-artifact --fail-on broken",
		Flags: []cli.Flag{
			remoteFlag(),
			&cli.StringFlag{Name: "out", Usage: "local store `FOLDER` for the snapshot and the diff (default: .snap/ at the repository root)"},
			&cli.StringSliceFlag{Name: "fail-on", Usage: "on a pull request, exit 1 when the diff shows one of these `CONDITIONS` (broken, removed, signature, any)"},
			&cli.BoolFlag{Name: "push-pr", Usage: "push pull request snapshots too (filed under the head branch)"},
			&cli.BoolFlag{Name: "comment-on-pr", Usage: "post the diff on the pull request (GitHub, with $GITHUB_TOKEN), updating snap's earlier comment"},
			&cli.StringSliceFlag{Name: "languages", Usage: "index only these `LANGUAGES`"},
			&cli.StringSliceFlag{Name: "exclude", Usage: "leave out paths matching this `GLOB`; repeatable"},
		},
		Action: func(c *cli.Context) error {
			if err := exactArgs(c, 0, 1); err != nil {
				return err
			}
			for _, f := range c.StringSlice("fail-on") {
				if !slices.Contains(failConditions, f) {
					return usagef("ci: --fail-on %q is not a condition (have %s)", f, strings.Join(failConditions, ", "))
				}
			}
			if err := indexer.ValidateExclude(c.StringSlice("exclude")); err != nil {
				return usagef("--exclude: %v", err)
			}
			dir := cmpOr(c.Args().First(), ".")
			return runCI(c.Context, log, c, dir)
		},
	}
}

func runCI(ctx context.Context, log *slog.Logger, c *cli.Context, dir string) error {
	id := detect(ctx, dir)
	id.readCommit(ctx)
	env := readCI(ctx, id)
	if !id.Git {
		return usagef("ci: %s is not a git checkout", dir)
	}
	if id.Commit == "" {
		return usagef("ci: %s has no commit checked out", dir)
	}
	id.Repo, id.Branch, id.Commit = env.Repo, env.Branch, env.Commit
	if id.Dirty {
		log.Warn("the checkout has uncommitted changes; they are indexed under a -dirty commit", "commit", id.Commit)
	}
	if shallow, _ := git(ctx, id.Root, "rev-parse", "--is-shallow-repository"); shallow == "true" {
		log.Warn("a shallow clone: ancestry comes from the snapshots' recorded parents only; set fetch-depth: 0 on actions/checkout so HEAD can always move forward")
	}
	local, err := openStore(c.String("out"), id.Root)
	if err != nil {
		return err
	}
	var remote *storeRef
	if url, err := remoteURL(ctx, c, id.Root); err == nil {
		r, err := openStore(url, id.Root)
		if err != nil {
			return err
		}
		remote = &r
	}
	log.Info("ci", "provider", env.Provider, "event", env.Event, "repo", env.Repo, "branch", env.Branch,
		"commit", env.Commit, "base_branch", env.BaseBranch, "store", remoteLabel(remote))

	// The base: this branch's HEAD, else the target's or the default
	// branch's, pulled into the local store.
	candidates := []string{env.Branch, env.BaseBranch, env.DefaultBranch}
	var basePrefix, baseBranch string
	for _, b := range candidates {
		if b == "" {
			continue
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
	langs, err := chooseLanguages(c.StringSlice("languages"))
	if err != nil {
		return err
	}
	job := indexJob{dir: dir, id: id, store: local, log: log,
		opts: indexer.Options{Languages: langs, Exclude: c.StringSlice("exclude"), Progress: progress(c.App.ErrWriter, log)}}
	if basePrefix != "" {
		start := time.Now()
		job.base, _ = loadBase(ctx, log, local.store, basePrefix, baseBranch, false)
		job.baseRead = time.Since(start)
	}
	res, err := job.run(ctx)
	if err != nil {
		return err
	}
	folder := filepath.Join(local.root, filepath.FromSlash(res.prefix))
	outputs := map[string]string{
		"snapshot": folder, "commit": res.manifest.Commit,
		"nodes": fmt.Sprint(res.manifest.Counts.Nodes), "edges": fmt.Sprint(res.manifest.Counts.Edges),
		"files": fmt.Sprint(res.manifest.Counts.Files), "files-parsed": fmt.Sprint(res.manifest.Build.FilesParsed),
	}

	// Push.
	switch {
	case remote == nil:
		log.Info("no store named: the snapshot stays in the local folder, for an artifact", "folder", folder)
	case env.Event == "pull_request" && !c.Bool("push-pr"):
		log.Info("a pull request: not pushed (pass --push-pr to push it)")
	default:
		if err := ciPush(ctx, log, local, *remote, id, res); err != nil {
			if errors.Is(err, s3store.ErrAccessDenied) && env.Event == "pull_request" {
				log.Warn("the store refuses this run's credentials (a pull request from a fork has no secrets): not pushed", "err", err)
			} else {
				return err
			}
		}
	}

	// Diff a pull request against its target branch.
	var why string
	if env.Event == "pull_request" && env.BaseBranch != "" {
		target, err := fetchHead(ctx, log, remote, local, env.Repo, env.BaseBranch)
		if err != nil || target == "" {
			log.Warn("no snapshot of the target branch to diff against", "branch", env.BaseBranch, "err", err)
		} else {
			d, err := ciDiff(ctx, local, target, res.prefix)
			if err != nil {
				return err
			}
			path := filepath.Join(local.root, "snap-diff.json")
			raw, _ := json.MarshalIndent(d, "", "  ")
			if err := os.WriteFile(path, append(raw, '\n'), 0o644); err != nil {
				return err
			}
			outputs["diff-json"] = path
			md := diffMarkdown(d, [2]string{env.BaseBranch, env.Branch})
			if err := appendFile(os.Getenv("GITHUB_STEP_SUMMARY"), md); err != nil {
				return err
			}
			why = failed(d, c.StringSlice("fail-on"))
			if c.Bool("comment-on-pr") {
				switch {
				case env.Provider != "github" || env.PR == 0:
					log.Warn("--comment-on-pr: not a GitHub pull request; no comment")
				default:
					url, err := prComment(ctx, cmpOr(os.Getenv("GITHUB_API_URL"), "https://api.github.com"), os.Getenv("GITHUB_TOKEN"), env.Repo, env.PR, md)
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
	}
	if err := writeOutputs(os.Getenv("GITHUB_OUTPUT"), outputs); err != nil {
		return err
	}
	fmt.Fprintln(c.App.Writer, folder)
	if why != "" {
		return fmt.Errorf("ci: %s", why)
	}
	return nil
}

func remoteLabel(r *storeRef) string {
	if r == nil {
		return ""
	}
	return r.label
}

// fetchHead makes the HEAD snapshot of repo's branch available in local
// (pulled from remote when there is one) and returns its prefix; "" when
// there is none.
func fetchHead(ctx context.Context, log *slog.Logger, remote *storeRef, local storeRef, repo, branch string) (string, error) {
	if remote != nil {
		head, _, err := snapshot.ReadHead(ctx, remote.store, repo, branch)
		if errors.Is(err, fs.ErrNotExist) {
			return "", nil
		} else if err != nil {
			return "", storeError(*remote, err)
		}
		res, _, err := pullHead(ctx, *remote, local, repo, branch, head)
		if err != nil {
			return "", err
		}
		log.Info("pulled", "branch", branch, "commit", head.Commit, "bytes", res.Bytes, "present", res.Present)
		return res.Prefix, nil // the commit's build key when the cache held another snapshot of it
	}
	head, _, err := snapshot.ReadHead(ctx, local.store, repo, branch)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	} else if err != nil {
		return "", err
	}
	return snapshot.Prefix(repo, branch, head.Commit)
}

// ciPush copies the new snapshot to the store and moves HEAD forward.
func ciPush(ctx context.Context, log *slog.Logger, local, remote storeRef, id identity, res indexResult) error {
	cp, err := snapshot.Copy(ctx, remote.store, local.store, res.prefix, snapshot.CopyOptions{})
	if err != nil {
		return storeError(remote, err)
	}
	mv, err := snapshot.MoveHead(ctx, remote.store, id.Repo, id.Branch, cp.Manifest, cp.ManifestSHA256,
		snapshot.HeadOptions{Ancestry: gitAncestry(id.Root)})
	if err != nil {
		return storeError(remote, err)
	}
	log.Info("pushed", "store", remote.label, "bytes", cp.Bytes, "head_moved", mv.Moved, "reason", mv.Reason, "generation", mv.To.Generation)
	return nil
}

// ciDiff diffs two snapshots of the local store.
func ciDiff(ctx context.Context, local storeRef, from, to string) (*schemas.Diff, error) {
	var es [2]*query.Engine
	for i, p := range []string{from, to} {
		e, _, err := loadFrom(ctx, source{store: local.store, prefix: p, label: p}, 0)
		if err != nil {
			return nil, err
		}
		es[i] = e
	}
	return query.Diff(es[0], es[1], query.DiffOptions{}), nil
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

// writeOutputs appends name=value lines to $GITHUB_OUTPUT.
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
