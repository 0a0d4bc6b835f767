package main

import (
	"io"
	"net"
	"net/http"
	"sync/atomic"
)

// otlpSink serves an OTLP/HTTP endpoint on loopback that takes every
// export and answers success (an empty response message, whose protobuf
// encoding is no bytes), for the servers' exporters to send to while
// their CPU is measured: the cost of exporting is theirs, not a
// collector's. It returns the endpoint and the function that stops it.
func otlpSink() (endpoint string, stop func(), err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	var exports atomic.Int64
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		exports.Add(1)
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.WriteHeader(http.StatusOK)
	})}
	go func() { _ = srv.Serve(ln) }()
	return "http://" + ln.Addr().String(), func() { _ = srv.Close() }, nil
}
