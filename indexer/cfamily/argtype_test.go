package cfamily

import "testing"

func TestNormType(t *testing.T) {
	for in, want := range map[string]string{
		"const char *":            "const char*",
		"char *const":             "char*",
		"const std::string &":     "std::string",
		"std::vector<int> &":      "std::vector&",
		"T &&":                    "T&&",
		"unsigned long int":       "unsigned long",
		"unsigned":                "unsigned int",
		"struct node *":           "node*",
		"volatile int":            "int",
		"int []":                  "?",
		"auto":                    "?",
		"Args...":                 "?",
		"int (*)(int)":            "?",
		"const shop::Item *const": "const shop::Item*",
	} {
		if got := normType(in); got != want {
			t.Errorf("normType(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLiteralType(t *testing.T) {
	for in, want := range map[string]string{
		"0": "0", "00": "0", "1": "int", "1u": "unsigned int", "1L": "long", "1UL": "unsigned long", "1ll": "long long",
		"1.0": "double", "1.0f": "float", "1e3": "double", "2.5L": "long double", "0x1F": "int",
		"12345678901": "?", "0b101": "?", "1'000": "int",
		"1.0 * x": "?", "2 + n": "?", "1e+5": "double", "0x1p3": "?",
	} {
		if got := literalType(in); got != want {
			t.Errorf("literalType(%q) = %q, want %q", in, got, want)
		}
	}
}
