package server

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"poolbench.dev/lab-target/internal/labdb"
)

// The lab's login pair (POST /login, GET /me), the same on every runtime (docs/runtimes.md).
// Tokens are stateless, so any instance behind nginx accepts another's:
// "<userId>.<hex HMAC-SHA256(key TokenKey, message "<userId>")>". The key is public: this is a
// lab for pooled request flows, not an authentication system.
const TokenKey = "poolbench-lab"

// maxLoginBody bounds the body POST /login reads; a larger one is a bad_login.
const maxLoginBody = 64 << 10

// Error answers of the pair; the messages are the same on every runtime.
const (
	msgBadLogin       = "body must be a JSON object with string fields username and password"
	msgBadCredentials = "unknown username or wrong password"
	msgUnauthorized   = "missing or invalid bearer token"
	msgUserNotFound   = "the token's user does not exist"
)

// tokenRe: a user id without leading zeros (at most 10 digits, checked against int32 below)
// and 64 lowercase hex digits.
var tokenRe = regexp.MustCompile(`^([1-9][0-9]{0,9})\.([0-9a-f]{64})$`)

// Token is the bearer token of user id.
func Token(id int) string {
	msg := strconv.Itoa(id)
	return msg + "." + tokenMAC(msg)
}

func tokenMAC(msg string) string {
	m := hmac.New(sha256.New, []byte(TokenKey))
	m.Write([]byte(msg))
	return hex.EncodeToString(m.Sum(nil))
}

// bearerUser returns the user id of the request's "Authorization: Bearer <token>" header
// (scheme case-insensitive); ok=false when it is missing, malformed or its HMAC does not verify.
func bearerUser(r *http.Request) (id int, ok bool) {
	v := strings.TrimSpace(r.Header.Get("Authorization"))
	if len(v) < 7 || !strings.EqualFold(v[:7], "bearer ") {
		return 0, false
	}
	m := tokenRe.FindStringSubmatch(strings.TrimSpace(v[7:]))
	if m == nil {
		return 0, false
	}
	n, err := strconv.ParseInt(m[1], 10, 32)
	if err != nil {
		return 0, false
	}
	if subtle.ConstantTimeCompare([]byte(m[2]), []byte(tokenMAC(m[1]))) != 1 {
		return 0, false
	}
	return int(n), true
}

// readLogin parses POST /login's body: a JSON object whose username and password are strings
// (other fields are ignored). ok=false: missing, too large, not JSON, or a field missing or not
// a string.
func readLogin(w http.ResponseWriter, r *http.Request) (username, password string, ok bool) {
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxLoginBody))
	if err != nil {
		return "", "", false
	}
	var body map[string]any
	if err := json.Unmarshal(b, &body); err != nil {
		return "", "", false
	}
	username, okU := body["username"].(string)
	password, okP := body["password"].(string)
	return username, password, okU && okP
}

type loginAnswer struct {
	Token  string `json:"token"`
	UserID int    `json:"userId"`
}

// login checks username and password with one query on a pool connection, held for that
// query only, and answers the user's token.
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	username, password, ok := readLogin(w, r)
	if !ok {
		writeError(w, http.StatusBadRequest, "bad_login", msgBadLogin)
		return
	}
	l := s.lease(w, r)
	if l == nil {
		return
	}
	var id int
	var stored string
	var found bool
	var err error
	if l.SQL != nil {
		id, stored, found, err = labdb.UserByNameMySQL(r.Context(), l.SQL, username)
	} else {
		id, stored, found, err = labdb.UserByName(r.Context(), l.Conn, username)
	}
	l.Release()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if !found || subtle.ConstantTimeCompare([]byte(stored), []byte(password)) != 1 {
		writeError(w, http.StatusUnauthorized, "bad_credentials", msgBadCredentials)
		return
	}
	writeJSON(w, http.StatusOK, loginAnswer{Token: Token(id), UserID: id})
}

type meAnswer struct {
	ID       int    `json:"id"`
	Username string `json:"username"`
}

// me verifies the bearer token without the database, then reads its user through the pool.
func (s *Server) me(w http.ResponseWriter, r *http.Request) {
	id, ok := bearerUser(r)
	if !ok {
		writeError(w, http.StatusUnauthorized, "unauthorized", msgUnauthorized)
		return
	}
	l := s.lease(w, r)
	if l == nil {
		return
	}
	var username string
	var found bool
	var err error
	if l.SQL != nil {
		username, found, err = labdb.UsernameByIDMySQL(r.Context(), l.SQL, id)
	} else {
		username, found, err = labdb.UsernameByID(r.Context(), l.Conn, id)
	}
	l.Release()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if !found {
		writeError(w, http.StatusNotFound, "user_not_found", msgUserNotFound)
		return
	}
	writeJSON(w, http.StatusOK, meAnswer{ID: id, Username: username})
}
