package ci

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// commentMarker marks snap's comment on a pull request, so a later run
// updates it instead of adding another.
const commentMarker = "<!-- snap-diff -->"

// prComment posts body as snap's comment on pull request pr of repo
// ("owner/name") through GitHub's REST API at api, or updates the comment
// an earlier run posted.
func prComment(ctx context.Context, api, token, repo string, pr int, body string) (string, error) {
	if token == "" {
		return "", fmt.Errorf("comment on pull request #%d: no GITHUB_TOKEN (give the job `permissions: pull-requests: write`)", pr)
	}
	body = commentMarker + "\n" + body
	c := &http.Client{Timeout: 30 * time.Second}
	call := func(method, url string, in any, out any) error {
		var rd io.Reader
		if in != nil {
			raw, _ := json.Marshal(in)
			rd = bytes.NewReader(raw)
		}
		req, err := http.NewRequestWithContext(ctx, method, url, rd)
		if err != nil {
			return err
		}
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Accept", "application/vnd.github+json")
		req.Header.Set("X-GitHub-Api-Version", "2022-11-28")
		if in != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		resp, err := c.Do(req)
		if err != nil {
			return err
		}
		defer resp.Body.Close()
		if resp.StatusCode/100 != 2 {
			msg, _ := io.ReadAll(io.LimitReader(resp.Body, 512))
			return fmt.Errorf("%s %s: %s: %s", method, url, resp.Status, bytes.TrimSpace(msg))
		}
		if out != nil {
			return json.NewDecoder(resp.Body).Decode(out)
		}
		return nil
	}
	api = strings.TrimSuffix(api, "/")
	type comment struct {
		ID   int64  `json:"id"`
		Body string `json:"body"`
		URL  string `json:"html_url"`
	}
	for page := 1; page <= 20; page++ {
		var list []comment
		url := fmt.Sprintf("%s/repos/%s/issues/%d/comments?per_page=100&page=%d", api, repo, pr, page)
		if err := call("GET", url, nil, &list); err != nil {
			return "", fmt.Errorf("comment on pull request #%d: %w", pr, err)
		}
		for _, cm := range list {
			if strings.HasPrefix(cm.Body, commentMarker) {
				var out comment
				err := call("PATCH", fmt.Sprintf("%s/repos/%s/issues/comments/%d", api, repo, cm.ID), map[string]string{"body": body}, &out)
				if err != nil {
					return "", fmt.Errorf("update the comment on pull request #%d: %w", pr, err)
				}
				return out.URL, nil
			}
		}
		if len(list) < 100 {
			break
		}
	}
	var out comment
	if err := call("POST", fmt.Sprintf("%s/repos/%s/issues/%d/comments", api, repo, pr), map[string]string{"body": body}, &out); err != nil {
		return "", fmt.Errorf("comment on pull request #%d: %w", pr, err)
	}
	return out.URL, nil
}
