// Package auditfile reads the audit log (one JSON line a call) that a
// server under test writes with --audit-log, and does to it what
// logrotate does, for the tests that rotate it under the real binaries.
//
//	auditfile.WaitLines(t, path, 1)
//	auditfile.Rotate(t, cmd.Process, path, path+".1", stderr, 1)
package auditfile
