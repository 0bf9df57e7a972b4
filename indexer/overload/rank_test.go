package overload_test

import (
	"testing"

	"github.com/graphsnap/snap/indexer/overload"
)

const (
	E = overload.Exact
	P = overload.Promotion
	C = overload.Conversion
	U = overload.UserDefined
	Q = overload.Unknown
	N = overload.NotViable
)

func TestChooseRanked(t *testing.T) {
	differ := func(c, d, a int) bool { return false }
	alike := func(c, d, a int) bool { return true }
	for _, tc := range []struct {
		name  string
		ranks [][]overload.Rank
		same  func(c, d, a int) bool
		want  int
		out   overload.Outcome
	}{
		{"exact beats promotion", [][]overload.Rank{{P}, {E}}, differ, 1, overload.Chosen},
		{"promotion beats conversion", [][]overload.Rank{{C}, {P}}, differ, 1, overload.Chosen},
		{"standard beats user-defined", [][]overload.Rank{{U}, {C}}, differ, 1, overload.Chosen},
		{"unknown decides nothing", [][]overload.Rank{{E}, {Q}}, differ, -1, overload.Ambiguous},
		{"the only one that may apply", [][]overload.Rank{{N}, {Q}}, differ, 1, overload.Chosen},
		{"a user-defined winner is not proven", [][]overload.Rank{{U}, {U}}, alike, -1, overload.Ambiguous},
		{"better once each", [][]overload.Rank{{E, C}, {C, E}}, differ, -1, overload.Ambiguous},
		{"equal and better", [][]overload.Rank{{E, E}, {E, C}}, alike, 0, overload.Chosen},
		{"equal ranks of different conversions", [][]overload.Rank{{E, E}, {E, C}}, differ, -1, overload.Ambiguous},
		{"none", [][]overload.Rank{{N}, {N}}, differ, -1, overload.None},
	} {
		got, out := overload.ChooseRanked(tc.ranks, tc.same)
		if got != tc.want || out != tc.out {
			t.Errorf("%s: got %d, %d; want %d, %d", tc.name, got, out, tc.want, tc.out)
		}
	}
}
