package ci

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// Env is what a CI run is about, read from the CI's environment.
type Env struct {
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

// ReadEnv reads GitHub Actions' or GitLab CI's variables through getenv,
// else git's view of the checkout id.
func ReadEnv(ctx context.Context, id Identity, getenv func(string) string) Env {
	e := Env{Provider: "git", Repo: id.Repo, Branch: id.Branch, Commit: id.Commit, Event: "local"}
	switch {
	case getenv("GITHUB_ACTIONS") == "true":
		e.Provider = "github"
		e.Repo = cmp.Or(getenv("GITHUB_REPOSITORY"), e.Repo)
		e.Commit = cmp.Or(getenv("GITHUB_SHA"), e.Commit)
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
		if path := getenv("GITHUB_EVENT_PATH"); path != "" {
			if raw, err := os.ReadFile(path); err == nil {
				json.Unmarshal(raw, &ev)
			}
		}
		e.DefaultBranch = ev.Repository.DefaultBranch
		if name := getenv("GITHUB_EVENT_NAME"); name == "pull_request" || name == "pull_request_target" {
			e.Event, e.PR = "pull_request", ev.Number
			e.Branch = getenv("GITHUB_HEAD_REF")
			e.BaseBranch = getenv("GITHUB_BASE_REF")
			e.BaseSHA = ev.PullRequest.Base.SHA
			// The checkout is the merge commit; the snapshot is filed under
			// it, on the head branch.
		} else {
			e.Branch = cmp.Or(getenv("GITHUB_REF_NAME"), e.Branch)
		}
	case getenv("GITLAB_CI") == "true":
		e.Provider = "gitlab"
		e.Repo = cmp.Or(getenv("CI_PROJECT_PATH"), e.Repo)
		e.Commit = cmp.Or(getenv("CI_COMMIT_SHA"), e.Commit)
		e.DefaultBranch = getenv("CI_DEFAULT_BRANCH")
		e.Event = "push"
		if t := getenv("CI_MERGE_REQUEST_TARGET_BRANCH_NAME"); t != "" {
			e.Event, e.BaseBranch = "pull_request", t
			e.BaseSHA = getenv("CI_MERGE_REQUEST_DIFF_BASE_SHA")
			e.Branch = cmp.Or(getenv("CI_MERGE_REQUEST_SOURCE_BRANCH_NAME"), e.Branch)
			fmt.Sscan(getenv("CI_MERGE_REQUEST_IID"), &e.PR)
		} else {
			e.Branch = cmp.Or(getenv("CI_COMMIT_BRANCH"), getenv("CI_COMMIT_REF_NAME"), e.Branch)
		}
	}
	if e.DefaultBranch == "" {
		if ref, err := Git(ctx, id.Root, "symbolic-ref", "--short", "-q", "refs/remotes/origin/HEAD"); err == nil {
			e.DefaultBranch = strings.TrimPrefix(ref, "origin/")
		}
	}
	return e
}
