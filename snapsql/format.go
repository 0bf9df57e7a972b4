package snapsql

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"
)

// JSONValue returns v (a value of Result.Rows) as JSON encodes it here:
// 64-bit unsigned and wider integers (ids) as decimal strings, since many
// JSON clients round numbers above 2^53; bytes as text (invalid UTF-8 as
// U+FFFD); NaN and infinities as strings. Lists and maps are turned
// likewise, member by member.
func JSONValue(v any) any {
	switch x := v.(type) {
	case uint64:
		return strconv.FormatUint(x, 10)
	case *big.Int:
		return x.String()
	case []byte:
		return strings.ToValidUTF8(string(x), "\uFFFD")
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return strconv.FormatFloat(x, 'g', -1, 64)
		}
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = JSONValue(e)
		}
		return out
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = JSONValue(e)
		}
		return out
	}
	return v
}

// Text returns v (a value of Result.Rows) as a table or CSV cell shows
// it: strings as they are, NULL as "", lists and maps as JSON.
func Text(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []byte:
		return strings.ToValidUTF8(string(x), "\uFFFD")
	case uint64:
		return strconv.FormatUint(x, 10)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case *big.Int:
		return x.String()
	}
	b, err := json.Marshal(JSONValue(v))
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// jsonResult is a Result's JSON form: the columns once, then the rows as
// lists of values in the columns' order.
type jsonResult struct {
	Columns   []Column `json:"columns"`
	Rows      [][]any  `json:"rows"`
	Truncated bool     `json:"truncated,omitempty"`
}

// MarshalJSON encodes r as {"columns": [{"name", "type"}], "rows":
// [[value, ...]], "truncated": true when cut}, values as JSONValue
// gives them.
func (r *Result) MarshalJSON() ([]byte, error) {
	out := jsonResult{Columns: r.Columns, Rows: make([][]any, len(r.Rows)), Truncated: r.Truncated}
	for i, row := range r.Rows {
		out.Rows[i] = make([]any, len(row))
		for j, v := range row {
			out.Rows[i][j] = JSONValue(v)
		}
	}
	return json.Marshal(out)
}

// WriteCSV writes r as CSV with a header line.
func (r *Result) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	rec := make([]string, len(r.Columns))
	for i, c := range r.Columns {
		rec[i] = c.Name
	}
	cw.Write(rec)
	for _, row := range r.Rows {
		for i, v := range row {
			rec[i] = Text(v)
		}
		cw.Write(rec)
	}
	cw.Flush()
	return cw.Error()
}

// maxCell is the widest a table cell grows, in characters.
const maxCell = 60

// WriteTable writes r as a table aligned in columns, for a terminal:
// each cell on one line (newlines and tabs shown as \n and \t), cut to
// 60 characters; numbers aligned right. A cut answer ends with a line
// that says so.
func (r *Result) WriteTable(w io.Writer) error {
	cells := make([][]string, len(r.Rows)+1)
	width := make([]int, len(r.Columns))
	right := make([]bool, len(r.Columns))
	cells[0] = make([]string, len(r.Columns))
	for i, c := range r.Columns {
		cells[0][i] = c.Name
		width[i] = utf8.RuneCountInString(c.Name)
		right[i] = numeric(c.Type)
	}
	esc := strings.NewReplacer("\n", `\n`, "\t", `\t`, "\r", `\r`)
	for k, row := range r.Rows {
		cells[k+1] = make([]string, len(row))
		for i, v := range row {
			s := esc.Replace(Text(v))
			if utf8.RuneCountInString(s) > maxCell {
				s = string([]rune(s)[:maxCell-1]) + "…"
			}
			cells[k+1][i] = s
			width[i] = max(width[i], utf8.RuneCountInString(s))
		}
	}
	var b strings.Builder
	line := func(row []string) {
		for i, s := range row {
			pad := strings.Repeat(" ", width[i]-utf8.RuneCountInString(s))
			if i > 0 {
				b.WriteString("  ")
			}
			if right[i] {
				b.WriteString(pad + s)
			} else if i < len(row)-1 {
				b.WriteString(s + pad)
			} else {
				b.WriteString(s)
			}
		}
		b.WriteString("\n")
	}
	line(cells[0])
	rule := make([]string, len(width))
	for i, n := range width {
		rule[i] = strings.Repeat("-", n)
	}
	line(rule)
	for _, row := range cells[1:] {
		line(row)
	}
	fmt.Fprintf(&b, "(%d %s", len(r.Rows), plural(len(r.Rows), "row"))
	if r.Truncated {
		b.WriteString(", cut at the row cap")
	}
	b.WriteString(")\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func numeric(typ string) bool {
	switch typ {
	case "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER",
		"UBIGINT", "UHUGEINT", "FLOAT", "DOUBLE":
		return true
	}
	return strings.HasPrefix(typ, "DECIMAL")
}

func plural(n int, s string) string {
	if n == 1 {
		return s
	}
	return s + "s"
}
