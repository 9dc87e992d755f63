package labtest

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"poolbench.dev/lab-target/internal/config"
	"poolbench.dev/lab-target/internal/server"
)

// signed builds a token the way the contract defines it, independently of the server's code:
// "<id>.<hex HMAC-SHA256(key "poolbench-lab", message "<id>")>".
func signed(id string) string {
	m := hmac.New(sha256.New, []byte("poolbench-lab"))
	m.Write([]byte(id))
	return id + "." + hex.EncodeToString(m.Sum(nil))
}

func TestTokenIsTheContractsHMAC(t *testing.T) {
	t.Parallel()
	// Vectors computed outside Go (Python's hmac), so every runtime can be checked against them.
	for id, want := range map[int]string{
		1:    "1.084ac7c6b5c1b3ada5f2dbdec02048247de82a8f4bcfbab134d9304c05fc1b93",
		42:   "42.e48f591344cd00d7c07fd6024204f0353591062d7d7b7e967b5f632c79f03684",
		1000: "1000.78028010d7d746fdce975bf25e383f134f85abdae59b9fe1c52f923ad71aefcb",
	} {
		if got := server.Token(id); got != want || signed(fmt.Sprint(id)) != want {
			t.Fatalf("token of %d: %s, want %s", id, got, want)
		}
	}
}

func login(t *testing.T, in *instance, body string) response {
	t.Helper()
	return do(t, http.MethodPost, in.URL+"/login", map[string]string{"Content-Type": "application/json"}, strings.NewReader(body))
}

func me(t *testing.T, in *instance, authorization string) response {
	t.Helper()
	h := map[string]string{}
	if authorization != "" {
		h["Authorization"] = authorization
	}
	return do(t, http.MethodGet, in.URL+"/me", h, nil)
}

func wantError(t *testing.T, r response, code int, errCode, what string) {
	t.Helper()
	if r.Code != code || r.json(t)["error"] != errCode {
		t.Fatalf("%s: %d %s, want %d %s", what, r.Code, r.Body, code, errCode)
	}
}

// checkLoginPair runs the contract of POST /login and GET /me against a, and checks that b (a
// second instance) accepts a's token. Both instances must serve nothing else meanwhile: the
// test counts their pool acquires.
func checkLoginPair(t *testing.T, a, b *instance) {
	t.Helper()
	acquires := func() float64 { return metric(t, a, `labtarget_pool_acquire_total{pool="main"}`) }
	before := acquires()

	r := login(t, a, `{"username":"user0042","password":"pw-user0042"}`)
	if r.Code != http.StatusOK {
		t.Fatalf("login: %d %s", r.Code, r.Body)
	}
	body := r.json(t)
	if body["token"] != signed("42") || body["userId"] != float64(42) || len(body) != 2 {
		t.Fatalf("login answer %s, want token %s and userId 42", r.Body, signed("42"))
	}
	r = me(t, a, "Bearer "+signed("42"))
	if r.Code != http.StatusOK || r.Header.Get("X-Pool") != "main" {
		t.Fatalf("me: %d %s (X-Pool %q)", r.Code, r.Body, r.Header.Get("X-Pool"))
	}
	if got := r.json(t); got["id"] != float64(42) || got["username"] != "user0042" || len(got) != 2 {
		t.Fatalf("me answer %s", r.Body)
	}
	if got := acquires() - before; got != 2 {
		t.Fatalf("login + me took %v pool connections, want one each", got)
	}
	// Stateless: another instance accepts the token; the scheme is case-insensitive.
	if r := me(t, b, "bearer "+signed("42")); r.Code != http.StatusOK || r.json(t)["username"] != "user0042" {
		t.Fatalf("me on the other instance: %d %s", r.Code, r.Body)
	}
	if r := login(t, a, `{"username":"user1000","password":"pw-user1000","extra":[1]}`); r.Code != http.StatusOK || r.json(t)["userId"] != float64(1000) {
		t.Fatalf("last user (other fields ignored): %d %s", r.Code, r.Body)
	}

	before = acquires()
	for _, c := range []struct{ body, what string }{
		{`{"username":"user0042","password":"pw-user0043"}`, "wrong password"},
		{`{"username":"user0042","password":""}`, "empty password"},
		{`{"username":"nobody","password":"pw-user0042"}`, "unknown user"},
		{`{"username":"USER0042","password":"pw-user0042"}`, "username in another case"},
		{`{"username":"user0042 ","password":"pw-user0042"}`, "username with a trailing space"},
		{`{"username":"user0042","password":"PW-USER0042"}`, "password in another case"},
	} {
		wantError(t, login(t, a, c.body), http.StatusUnauthorized, "bad_credentials", c.what)
	}
	if got := acquires() - before; got != 6 {
		t.Fatalf("6 refused logins took %v pool connections, want one each", got)
	}

	// Refused before the pool: malformed bodies and tokens take no connection.
	before = acquires()
	for _, c := range []struct{ body, what string }{
		{``, "empty body"},
		{`not json`, "not JSON"},
		{`{"username":"user0042","password":"pw-user0042"`, "truncated JSON"},
		{`{"username":"user0042","password":"pw-user0042"} x`, "trailing data"},
		{`[]`, "an array"},
		{`null`, "null"},
		{`{"username":"user0042"}`, "no password"},
		{`{"password":"pw-user0042"}`, "no username"},
		{`{"username":42,"password":"pw-user0042"}`, "username not a string"},
		{`{"username":"user0042","password":null}`, "password null"},
		{`{"username":"user0042","password":"` + strings.Repeat("x", 70<<10) + `"}`, "a body over 64 KiB"},
	} {
		wantError(t, login(t, a, c.body), http.StatusBadRequest, "bad_login", c.what)
	}
	tok := signed("42")
	last := "0"
	if strings.HasSuffix(tok, "0") {
		last = "1"
	}
	for _, c := range []struct{ header, what string }{
		{"", "no Authorization header"},
		{"Bearer", "no token"},
		{"Bearer ", "an empty token"},
		{"Basic " + tok, "another scheme"},
		{tok, "no scheme"},
		{"Bearer " + tok[:len(tok)-1] + last, "a tampered HMAC"},
		{"Bearer 43" + tok[2:], "another id with 42's HMAC"},
		{"Bearer " + strings.ToUpper(tok), "upper-case hex"},
		{"Bearer " + signed("042"), "an id with a leading zero"},
		{"Bearer " + signed("0"), "id 0"},
		{"Bearer " + signed("2147483648"), "an id beyond int32"},
		{"Bearer " + tok + "." + tok, "two tokens"},
	} {
		wantError(t, me(t, a, c.header), http.StatusUnauthorized, "unauthorized", c.what)
	}
	if got := acquires() - before; got != 0 {
		t.Fatalf("requests refused before the database took %v pool connections", got)
	}

	// A valid token whose user does not exist.
	wantError(t, me(t, a, "Bearer "+signed("5000")), http.StatusNotFound, "user_not_found", "unknown id")

	for series, want := range map[string]float64{
		`labtarget_http_request_duration_seconds_count{code="200",route="login"}`: 2,
		`labtarget_http_request_duration_seconds_count{code="401",route="login"}`: 6,
		`labtarget_http_request_duration_seconds_count{code="400",route="login"}`: 11,
		`labtarget_http_request_duration_seconds_count{code="200",route="me"}`:    1,
		`labtarget_http_request_duration_seconds_count{code="401",route="me"}`:    12,
		`labtarget_http_request_duration_seconds_count{code="404",route="me"}`:    1,
	} {
		if got := metric(t, a, series); got != want {
			t.Errorf("%s = %v, want %v", series, got, want)
		}
	}
}

func TestLoginAndMe(t *testing.T) {
	t.Parallel()
	a := startInstance(t, func(c *config.Config) { c.Strategy = "fixed"; c.MaxConns = 2 })
	b := startInstance(t, func(c *config.Config) { c.Strategy = "lazy"; c.MaxConns = 2 })
	checkLoginPair(t, a, b)
}

func TestMariaDBLoginAndMe(t *testing.T) {
	t.Parallel()
	a, _ := startMyInstance(t, 0, func(c *config.Config) { c.Strategy = "fixed"; c.MaxConns = 2 })
	b, _ := startMyInstance(t, 0, func(c *config.Config) { c.Strategy = "lazy"; c.MaxConns = 2 })
	checkLoginPair(t, a, b)
}
