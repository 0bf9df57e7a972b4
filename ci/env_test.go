package ci

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestReadEnv reads a GitHub pull request, a GitHub push and a GitLab
// merge request from their variables alone, and falls back to the
// checkout outside CI.
func TestReadEnv(t *testing.T) {
	event := filepath.Join(t.TempDir(), "event.json")
	if err := os.WriteFile(event, []byte(`{"number": 7, "pull_request": {"base": {"sha": "b4se"}}, "repository": {"default_branch": "trunk"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	id := Identity{Root: t.TempDir(), Repo: "here/repo", Branch: "topic", Commit: "c0ffee"}
	for _, tc := range []struct {
		name string
		env  map[string]string
		want Env
	}{
		{"local", nil, Env{Provider: "git", Repo: "here/repo", Branch: "topic", Commit: "c0ffee", Event: "local"}},
		{"github pull request", map[string]string{
			"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "acme/api", "GITHUB_SHA": "m3rge", "GITHUB_EVENT_PATH": event,
			"GITHUB_EVENT_NAME": "pull_request", "GITHUB_HEAD_REF": "feature", "GITHUB_BASE_REF": "main",
		}, Env{Provider: "github", Repo: "acme/api", Branch: "feature", Commit: "m3rge", Event: "pull_request",
			BaseBranch: "main", BaseSHA: "b4se", DefaultBranch: "trunk", PR: 7}},
		{"github push", map[string]string{
			"GITHUB_ACTIONS": "true", "GITHUB_REPOSITORY": "acme/api", "GITHUB_SHA": "abc", "GITHUB_EVENT_NAME": "push", "GITHUB_REF_NAME": "main",
		}, Env{Provider: "github", Repo: "acme/api", Branch: "main", Commit: "abc", Event: "push"}},
		{"gitlab merge request", map[string]string{
			"GITLAB_CI": "true", "CI_PROJECT_PATH": "grp/proj", "CI_COMMIT_SHA": "def", "CI_DEFAULT_BRANCH": "main",
			"CI_MERGE_REQUEST_TARGET_BRANCH_NAME": "main", "CI_MERGE_REQUEST_DIFF_BASE_SHA": "ba5e",
			"CI_MERGE_REQUEST_SOURCE_BRANCH_NAME": "fix", "CI_MERGE_REQUEST_IID": "12",
		}, Env{Provider: "gitlab", Repo: "grp/proj", Branch: "fix", Commit: "def", Event: "pull_request",
			BaseBranch: "main", BaseSHA: "ba5e", DefaultBranch: "main", PR: 12}},
	} {
		got := ReadEnv(context.Background(), id, func(k string) string { return tc.env[k] })
		if got != tc.want {
			t.Errorf("%s:\n got %+v\nwant %+v", tc.name, got, tc.want)
		}
	}
}
