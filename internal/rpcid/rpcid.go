package rpcid

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// MaxExact is the largest magnitude of a numeric id answered unchanged.
const MaxExact = 1 << 53

// Refusal says why an id that is not [Exact] is refused, for the message
// of the JSON-RPC error -32600 (Invalid Request).
const Refusal = `"id" must be a string or an integer of at most 2^53 in magnitude (a fraction, an exponent or a larger number would be answered changed)`

// Exact reports whether id (its JSON text) is answered exactly as sent: a
// string, or a number written as an integer of at most 2^53 in magnitude
// (not "1.0", "1e2" or "-0"). Any other JSON value (null, a boolean, an
// object) is not an id at all; Exact reports false for it too.
func Exact(id json.RawMessage) bool {
	id = bytes.TrimSpace(id)
	if len(id) > 0 && id[0] == '"' {
		return true
	}
	s := string(id)
	digits := strings.TrimPrefix(s, "-")
	if digits == "" || strings.Trim(digits, "0123456789") != "" || len(digits) > 1 && digits[0] == '0' || s == "-0" {
		return false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	return err == nil && n <= MaxExact && n >= -MaxExact
}

// Number reports whether id (its JSON text) is a JSON number.
func Number(id json.RawMessage) bool {
	id = bytes.TrimSpace(id)
	if len(id) == 0 || id[0] != '-' && (id[0] < '0' || id[0] > '9') {
		return false
	}
	var n json.Number
	return json.Unmarshal(id, &n) == nil
}
