package testcert

import (
	"crypto/tls"
	"crypto/x509"
	"testing"
)

func TestSelfSigned(t *testing.T) {
	certFile, keyFile, pool := SelfSigned(t)
	pair, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pair.Leaf.Verify(x509VerifyOptions(pool)); err != nil {
		t.Errorf("the pool does not trust the certificate: %v", err)
	}
}

func x509VerifyOptions(pool *x509.CertPool) x509.VerifyOptions {
	return x509.VerifyOptions{Roots: pool, DNSName: "127.0.0.1"}
}
