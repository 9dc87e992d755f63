package labtest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"poolbench.dev/lab-target/internal/labdb"
)

// labTarget runs this test binary as the lab-target command (see TestMain).
func labTarget(ctx context.Context, env []string, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Env = append([]string{"LAB_TARGET_TEST_EXEC=1", "PATH=" + os.Getenv("PATH")}, env...)
	return cmd
}

func TestBadFlagsExit2NamingTheFlag(t *testing.T) {
	t.Parallel()
	dsn := "--database-url=" + testDSN()
	cases := []struct {
		args []string
		env  []string
		flag string
	}{
		{[]string{"serve", dsn, "--strategy=turbo"}, nil, "--strategy"},
		{[]string{dsn, "--min-conns=11", "--max-conns=10"}, nil, "--min-conns"},
		{[]string{dsn, "--acquire-timeout=-5ms"}, nil, "--acquire-timeout"},
		{[]string{dsn, "--idle-timeout=-1"}, nil, "--idle-timeout"},
		{[]string{dsn, "--max-conns=0"}, nil, "--max-conns"},
		{[]string{dsn, "--connect-timeout=soon"}, nil, "-connect-timeout"},
		{[]string{dsn, "--no-such-flag"}, nil, "no-such-flag"},
		{[]string{"--strategy=lazy"}, nil, "--database-url"},
		{[]string{dsn}, []string{"LAB_MAX_CONNS=-3"}, "--max-conns"},
		{[]string{dsn}, []string{"LAB_STATEMENT_TIMEOUT=-1s"}, "--statement-timeout"},
		{[]string{"setup", dsn, "--rows=0"}, nil, "--rows"},
		{[]string{"blobstore", "--store=disk"}, nil, "--store"},
		{[]string{"linkproxy"}, nil, "--upstream"},
		{[]string{"linkproxy", "--upstream=127.0.0.1:1", "--delay=-1ms"}, nil, "-delay"},
	}
	for _, c := range cases {
		var stderr bytes.Buffer
		cmd := labTarget(context.Background(), c.env, c.args...)
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Errorf("%v %v: want exit 2, got %v (stderr %q)", c.env, c.args, err, stderr.String())
			continue
		}
		if !strings.Contains(stderr.String(), c.flag) {
			t.Errorf("%v %v: message %q does not name %s", c.env, c.args, stderr.String(), c.flag)
		}
	}
}

func TestServeShutsDownOnSIGTERMAndClosesPools(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	appName := uniqueAppName(t)
	// Flags win over env: LAB_MAX_CONNS=9 must lose to --max-conns=3.
	cmd := labTarget(ctx, []string{"LAB_STRATEGY=prewarm", "LAB_MAX_CONNS=9"},
		"serve", "--database-url="+testDSN(), "--listen=127.0.0.1:0", "--max-conns=3", "--application-name="+appName)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "listening http://") {
		t.Fatalf("first stdout line %q: %v", line, err)
	}
	url := strings.TrimSpace(strings.TrimPrefix(line, "listening "))
	waitFor(t, 10*time.Second, "/ready", func() bool {
		resp, err := http.Get(url + "/ready")
		if err != nil {
			return false
		}
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK
	})
	if n := dbConns(t, appName); n != 3 {
		t.Fatalf("prewarm (from LAB_STRATEGY) with --max-conns=3 has %d connections", n)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v", err)
	}
	waitFor(t, 5*time.Second, "pool connections closed", func() bool { return dbConns(t, appName) == 0 })
}

func TestSetupIsIdempotentAndRebuildsOnNewSizes(t *testing.T) {
	t.Parallel()
	dsn := strings.Replace(testDSN(), "/poolbench_lab_test", "/poolbench_lab_test_setup", 1)
	if dsn == testDSN() {
		t.Skip("LAB_TEST_DATABASE_URL does not end in /poolbench_lab_test; setup test needs its own database")
	}
	ctx := context.Background()
	small := labdb.Sizes{Rows: 50, Fields: 3, Roles: 2, Permissions: 4, Shards: 3}
	first, err := labdb.Setup(ctx, dsn, small)
	if err != nil {
		t.Fatal(err)
	}
	again, err := labdb.Setup(ctx, dsn, small)
	if err != nil || again.Changed {
		t.Fatalf("second setup with the same sizes must be a no-op: %+v %v", again, err)
	}
	_ = first
	bigger := small
	bigger.Rows, bigger.Shards = 80, 2
	res, err := labdb.Setup(ctx, dsn, bigger)
	if err != nil || !res.Changed {
		t.Fatalf("setup with new sizes must rebuild: %+v %v", res, err)
	}
	conn, err := labdbConn(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var rows, shard0, shard1, shardSchemas int
	_ = conn.QueryRow(ctx, `SELECT count(*) FROM lab.wide_rows`).Scan(&rows)
	_ = conn.QueryRow(ctx, `SELECT count(*) FROM lab_shard_0.wide_rows`).Scan(&shard0)
	_ = conn.QueryRow(ctx, `SELECT count(*) FROM lab_shard_1.wide_rows`).Scan(&shard1)
	_ = conn.QueryRow(ctx, `SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'lab\_shard\_%'`).Scan(&shardSchemas)
	if rows != 80 || shard0+shard1 != 80 || shardSchemas != 2 {
		t.Fatalf("after rebuild: %d rows, shards %d+%d, %d shard schemas", rows, shard0, shard1, shardSchemas)
	}
	checkUsers := func() {
		t.Helper()
		var n int
		var first, firstPw, last, lastPw string
		_ = conn.QueryRow(ctx, `SELECT count(*) FROM lab.users`).Scan(&n)
		_ = conn.QueryRow(ctx, `SELECT username, password FROM lab.users WHERE id = 1`).Scan(&first, &firstPw)
		_ = conn.QueryRow(ctx, `SELECT username, password FROM lab.users WHERE id = 1000`).Scan(&last, &lastPw)
		if n != labdb.UserRows || first != "user0001" || firstPw != "pw-user0001" || last != "user1000" || lastPw != "pw-user1000" {
			t.Fatalf("lab.users: %d rows, 1 = %s/%s, 1000 = %s/%s", n, first, firstPw, last, lastPw)
		}
	}
	checkUsers()

	// A data set from before the users table (schema version 1) is rebuilt by the same sizes.
	if _, err := conn.Exec(ctx, `DROP TABLE lab.users`); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Exec(ctx, `UPDATE lab.meta SET value = '1' WHERE key = 'schema_version'`); err != nil {
		t.Fatal(err)
	}
	if res, err := labdb.Setup(ctx, dsn, bigger); err != nil || !res.Changed {
		t.Fatalf("setup over schema version 1 must rebuild: %+v %v", res, err)
	}
	checkUsers()
	if res, err := labdb.Setup(ctx, dsn, bigger); err != nil || res.Changed {
		t.Fatalf("setup at the current version must be a no-op: %+v %v", res, err)
	}
}

func labdbConn(ctx context.Context, dsn string) (*pgx.Conn, error) { return pgx.Connect(ctx, dsn) }

// The bench puts linkproxy between the target and Postgres to emulate seed 001's slow link:
// a target whose --database-url points at it must work, and every round trip (here a ping)
// must cost at least twice the one-way delay.
func TestLinkProxyDelaysPostgresRoundTrips(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	const delay = 30 * time.Millisecond
	pgAddr := dsnHostPort(testDSN())
	cmd := labTarget(ctx, nil, "linkproxy", "--upstream="+pgAddr, "--delay=30ms")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "listening ") {
		t.Fatalf("first stdout line %q: %v", line, err)
	}
	addr := strings.TrimSpace(strings.TrimPrefix(line, "listening "))
	conn, err := pgx.Connect(ctx, strings.Replace(testDSN(), pgAddr, addr, 1))
	if err != nil {
		t.Fatalf("connect through linkproxy: %v", err)
	}
	for i := range 3 {
		start := time.Now()
		if err := conn.Ping(ctx); err != nil {
			t.Fatal(err)
		}
		if rtt := time.Since(start); rtt < 2*delay {
			t.Fatalf("ping %d through the proxy took %v, want >= %v", i, rtt, 2*delay)
		}
	}
	var n int
	if err := conn.QueryRow(ctx, `SELECT count(*) FROM lab.wide_rows`).Scan(&n); err != nil || n != testSizes.Rows {
		t.Fatalf("query through the proxy: %d rows, %v", n, err)
	}
	_ = conn.Close(ctx)
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("exit after SIGTERM: %v", err)
	}
}
