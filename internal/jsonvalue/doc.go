// Package jsonvalue names the JSON type of a value decoded by encoding/json,
// for the messages and checks that say what a value is, and writes values
// as the exports write JSON (Marshal).
package jsonvalue
