package compiled

// ListGameForTest is listGame for the tests of package compiled_test.
const ListGameForTest = listGame

// DesignPackagesForTest are the generated packages, one a design.
func DesignPackagesForTest() []string {
	var pkgs []string
	for _, d := range designs {
		pkgs = append(pkgs, d.pkg)
	}
	return pkgs
}

// MemoGameForTest is memoGame for the tests of package compiled_test.
const MemoGameForTest = memoGame
