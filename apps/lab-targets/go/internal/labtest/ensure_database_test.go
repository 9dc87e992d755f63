package labtest

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"poolbench.dev/lab-target/internal/labdb"
)

// Workers of a fleet set up a new data-set shape at the same moment (each takes a run of the same
// experiment): every one must get the database, whichever CREATE DATABASE won.
func TestEnsureDatabaseConcurrently(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	base, err := url.Parse(testDSN())
	if err != nil {
		t.Fatal(err)
	}
	for round := 0; round < 5; round++ {
		name := fmt.Sprintf("lt_ensure_%d_%d", os.Getpid(), round)
		dsn := *base
		dsn.Path = "/" + name
		drop := func() {
			if _, err := admin.Exec(ctx, "DROP DATABASE IF EXISTS "+pgx.Identifier{name}.Sanitize()+" WITH (FORCE)"); err != nil {
				t.Errorf("drop %s: %v", name, err)
			}
		}
		drop()
		var wg sync.WaitGroup
		errs := make([]error, 8)
		start := make(chan struct{})
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				errs[i] = labdb.EnsureDatabase(ctx, dsn.String())
			}()
		}
		close(start)
		wg.Wait()
		drop()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d, caller %d: %v", round, i, err)
			}
		}
	}
}
