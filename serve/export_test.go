package serve

// CodeTooManySessions is codeTooManySessions, for the tests of package
// serve_test.
const CodeTooManySessions = codeTooManySessions
