package cpp_test

import (
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/graphsnap/snap/indexer/languagetest"
)

// TestShopCompiles checks with g++ that the C++ sources of the shop
// fixture are valid C++17, so that the edges TestPrecision expects are
// those of real code.
func TestShopCompiles(t *testing.T) {
	gxx := languagetest.LookTool(t, "g++", "checking the fixture compiles needs it (apt-get install g++)")
	root := "../../testdata/cpp/shop"
	var files []string
	for _, pat := range []string{"src/*.cpp", "tests/*.cc"} {
		m, err := filepath.Glob(filepath.Join(root, pat))
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatal("no C++ sources in " + root)
	}
	for _, f := range files {
		cmd := exec.Command(gxx, "-std=c++17", "-fsyntax-only", "-I", filepath.Join(root, "include"), "-I", filepath.Join(root, "src"), f)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("g++ %s: %v\n%s", f, err, out)
		}
	}
}
