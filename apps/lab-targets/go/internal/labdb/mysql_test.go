package labdb

import (
	"testing"
	"time"
)

func TestMySQLConfigConvertsPoolBenchURLs(t *testing.T) {
	cfg, err := MySQLConfig("mariadb://us%40er:p%40ss%3Aw%2Frd@db.local/lab?tls=false&wait_timeout=60")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.User != "us@er" || cfg.Passwd != "p@ss:w/rd" || cfg.Addr != "db.local:3306" || cfg.DBName != "lab" ||
		!cfg.ParseTime || !cfg.InterpolateParams || cfg.Net != "tcp" {
		t.Fatalf("converted config: %+v", cfg)
	}
	if cfg.Params["wait_timeout"] != "60" || cfg.TLSConfig != "false" {
		t.Fatalf("query parameters must reach the driver: %+v", cfg.Params)
	}
	cfg, err = MySQLConfig("mysql://u:p@127.0.0.1:33069/x?interpolateParams=false")
	if err != nil || cfg.InterpolateParams || cfg.Addr != "127.0.0.1:33069" {
		t.Fatalf("explicit interpolateParams=false: %+v %v", cfg, err)
	}
	MySQLSessionSettings(cfg, 2*time.Second, 1500*time.Millisecond)
	if cfg.Timeout != 2*time.Second || cfg.Params["max_statement_time"] != "1.500000" {
		t.Fatalf("session settings: timeout %v params %v", cfg.Timeout, cfg.Params)
	}
	for _, bad := range []string{"postgres://u@h/db", "mysql:///db"} {
		if _, err := MySQLConfig(bad); err == nil {
			t.Fatalf("%s must be rejected", bad)
		}
	}
	if !IsMySQL("MariaDB://x") || IsMySQL("postgres://x") {
		t.Fatal("IsMySQL")
	}
}
