package compiled

// ListGameForTest is listGame for the tests of package compiled_test.
const ListGameForTest = listGame
