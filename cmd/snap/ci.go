package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
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
	BaseSHA       string // the target branch's commit the pull request was opened or updated against, when known
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
				Base struct {
					SHA string `json:"sha"`
				} `json:"base"`
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
			e.BaseSHA = ev.PullRequest.Base.SHA
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
			e.BaseSHA = os.Getenv("CI_MERGE_REQUEST_DIFF_BASE_SHA")
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
			"--out/snap-diff.json, an error annotation on each broken caller; --fail-on turns\n" +
			"the diff into a gate. When the store has no snapshot of the target branch (or\n" +
			"there is no store), the pull request's merge base is indexed here, in a temporary\n" +
			"worktree, into --out and nothing is pushed: cache --out between runs and it is\n" +
			"indexed once. Outputs go to $GITHUB_OUTPUT (snapshot, commit, nodes, edges, files,\n" +
			"files-parsed, broken, diff-json). Without a store the snapshot stays in --out\n" +
			"for the workflow to upload as an artifact.\n\n" +
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

	langs, err := chooseLanguages(c.StringSlice("languages"))
	if err != nil {
		return err
	}
	opts := indexer.Options{Languages: langs, Exclude: c.StringSlice("exclude"), Progress: progress(c.App.ErrWriter, log)}

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
			if target, err = indexMergeBase(ctx, log, id, env, local, opts); err != nil {
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
	job := indexJob{dir: dir, id: id, store: local, log: log, opts: opts}
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
	m := res.manifest
	outputs := map[string]string{
		"snapshot": folder, "commit": m.Commit,
		"nodes": fmt.Sprint(m.Counts.Nodes), "edges": fmt.Sprint(m.Counts.Edges),
		"files": fmt.Sprint(m.Counts.Files), "files-parsed": fmt.Sprint(m.Build.FilesParsed),
		"broken": "0",
	}

	// Push.
	pushed := ""
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
		} else {
			pushed = remote.label
		}
	}
	summary := indexSummary(env, m, pushed, folder)

	// Diff a pull request against its target.
	var why string
	if pr && target != "" {
		d, err := ciDiff(ctx, local, target, res.prefix)
		if err != nil {
			return err
		}
		path := filepath.Join(local.root, "snap-diff.json")
		raw, _ := json.MarshalIndent(d, "", "  ")
		if err := os.WriteFile(path, append(raw, '\n'), 0o644); err != nil {
			return err
		}
		outputs["diff-json"], outputs["broken"] = path, fmt.Sprint(d.Summary.Broken)
		md := diffMarkdown(d, [2]string{env.BaseBranch, env.Branch})
		summary = md + "\n" + summary
		why = failed(d, c.StringSlice("fail-on"))
		if env.Provider == "github" {
			level := "warning"
			if slices.Contains(c.StringSlice("fail-on"), "broken") {
				level = "error"
			}
			abs, _ := filepath.Abs(dir)
			rel, _ := filepath.Rel(id.Root, abs)
			annotate(c.App.Writer, level, rel, d, maxAnnotations)
		}
		if c.Bool("comment-on-pr") {
			switch {
			case env.Provider != "github" || env.PR == 0:
				log.Warn("--comment-on-pr: not a GitHub pull request; no comment")
			default:
				token := cmpOr(os.Getenv("SNAP_GITHUB_TOKEN"), os.Getenv("GITHUB_TOKEN"))
				url, err := prComment(ctx, cmpOr(os.Getenv("GITHUB_API_URL"), "https://api.github.com"), token, env.Repo, env.PR, md)
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
	if err := appendFile(os.Getenv("GITHUB_STEP_SUMMARY"), summary); err != nil {
		return err
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

// indexSummary is the job summary of an indexed commit: what the
// snapshot holds and where it went.
func indexSummary(env ciEnv, m schemas.Manifest, pushed, folder string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### snap: %s at %s\n\n", codeSpan(env.Branch, false), codeSpan(short(m.Commit), false))
	fmt.Fprintf(&b, "| files | parsed | symbols | edges | unresolved | parse errors |\n|---:|---:|---:|---:|---:|---:|\n")
	fmt.Fprintf(&b, "| %d | %d | %d | %d | %d | %d |\n\n", m.Counts.Files, m.Build.FilesParsed, m.Counts.Nodes, m.Counts.Edges, m.Counts.Unresolved, m.Counts.ParseErrors)
	if pushed != "" {
		fmt.Fprintf(&b, "Pushed to %s.\n", codeSpan(pushed, false))
	} else {
		fmt.Fprintf(&b, "Not pushed: the snapshot is in %s on the runner.\n", codeSpan(folder, false))
	}
	return b.String()
}

// maxAnnotations bounds the annotations one run writes: GitHub shows ten
// errors of a step, and the summary holds the rest.
const maxAnnotations = 10

// annotate writes a GitHub workflow command for each broken caller of d,
// at its site (prefix is the indexed folder within the repository), up to
// max of them.
func annotate(w io.Writer, level, prefix string, d *schemas.Diff, max int) {
	n, total := 0, 0
	for _, sd := range d.Symbols {
		for _, c := range sd.Callers {
			total++
			if n >= max {
				continue
			}
			n++
			file, line, col := splitSite(c.Location)
			if prefix != "" && prefix != "." {
				file = filepath.ToSlash(filepath.Join(prefix, file))
			}
			msg := fmt.Sprintf("%s still uses %s, whose %s", c.QName, sd.QName, map[string]string{"removed": "definition was removed", "signature": "signature changed"}[sd.Change])
			if sd.Change == "signature" && sd.OldSignature != "" {
				msg += fmt.Sprintf(": %s → %s", sd.OldSignature, sd.Signature)
			}
			if c.Reason != "" {
				msg += " (" + c.Reason + ")"
			}
			fmt.Fprintf(w, "::%s file=%s,line=%s,col=%s,title=%s::%s\n", level, ghProperty(file), line, col,
				ghProperty("snap: "+sd.Change+" "+lastQName(sd.QName)), ghData(msg))
		}
	}
	if total > n {
		fmt.Fprintf(w, "::%s::%s\n", level, ghData(fmt.Sprintf("snap: %d more broken callers; the job summary lists them all", total-n)))
	}
}

// splitSite splits "file:line:col" (col optional).
func splitSite(loc string) (file, line, col string) {
	parts := strings.Split(loc, ":")
	switch {
	case len(parts) >= 3:
		return strings.Join(parts[:len(parts)-2], ":"), parts[len(parts)-2], parts[len(parts)-1]
	case len(parts) == 2:
		return parts[0], parts[1], "1"
	}
	return loc, "1", "1"
}

func lastQName(q string) string {
	if i := strings.LastIndexAny(q, "./:#\\"); i >= 0 && i < len(q)-1 {
		return q[i+1:]
	}
	return q
}

// ghData escapes the message of a workflow command.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a property value of a workflow command.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// indexMergeBase makes a snapshot of the commit a pull request's changes
// are measured from — the merge base of HEAD and the target branch — in
// local, under the target branch, and returns its prefix. It is indexed
// in a temporary worktree (incrementally against what local holds of the
// target branch, such as a cache restored from an earlier run), and
// nothing is pushed. A snapshot of that commit already in local is used
// as it is.
func indexMergeBase(ctx context.Context, log *slog.Logger, id identity, env ciEnv, local storeRef, opts indexer.Options) (string, error) {
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
		if m, _, err := snapshot.ReadManifest(ctx, local.store, held); err == nil && snapshot.GitCommit(m.Commit) == sha {
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
	bid := identity{Root: wt, Repo: env.Repo, Branch: env.BaseBranch, Git: true}
	bid.readCommit(ctx) // sha, its parents
	job := indexJob{dir: wt, id: bid, store: local, log: log, opts: opts}
	if held != "" {
		job.base, _ = loadBase(ctx, log, local.store, held, env.BaseBranch, false)
	}
	log.Info("indexing the merge base", "branch", env.BaseBranch, "commit", sha)
	res, err := job.run(ctx)
	if err != nil {
		return "", fmt.Errorf("index the merge base %s: %w", sha, err)
	}
	return res.prefix, nil
}

// mergeBase finds the commit a pull request's changes are measured from:
// the merge base of HEAD and the target's commit the CI names, else the
// target branch as the remote or the checkout knows it.
func mergeBase(ctx context.Context, root string, env ciEnv) (string, error) {
	refs := []string{env.BaseSHA}
	if env.BaseBranch != "" {
		refs = append(refs, "refs/remotes/origin/"+env.BaseBranch, "refs/heads/"+env.BaseBranch)
	}
	for _, ref := range refs {
		if ref == "" {
			continue
		}
		if sha, err := git(ctx, root, "merge-base", "HEAD", ref); err == nil && sha != "" {
			return sha, nil
		}
	}
	return "", fmt.Errorf("no merge base of HEAD and %s in this clone: check out with fetch-depth: 0", env.BaseBranch)
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
