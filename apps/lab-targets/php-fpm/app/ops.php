<?php
// /ready and /metrics of the php-fpm lab target, in their own one-child FPM pool.
declare(strict_types=1);
require __DIR__ . '/lib.php';

$path = parse_url($_SERVER['REQUEST_URI'] ?? '/', PHP_URL_PATH);
$c = cfg();
if ($path === '/ready') {
    // Its own short-lived, non-persistent connection, never one of the measured pool's.
    try {
        $u = parse_url($c['databaseUrl']);
        $db = ltrim($u['path'] ?? '', '/');
        $dsn = dialect() === 'pgsql'
            ? sprintf('pgsql:host=%s;port=%d;dbname=%s;connect_timeout=2;application_name=%s:probe', $u['host'], $u['port'] ?? 5432, $db, $c['applicationName'])
            : sprintf('mysql:host=%s;port=%d;dbname=%s', $u['host'], $u['port'] ?? 3306, $db);
        $pdo = new PDO($dsn, urldecode($u['user'] ?? ''), urldecode($u['pass'] ?? ''), [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION, PDO::ATTR_TIMEOUT => 2]);
        $pdo->query('SELECT 1')->fetchAll();
        $pdo = null;
        sendJson(200, ['ready' => true, 'instanceId' => $c['instanceId'], 'strategy' => $c['strategy'], 'runtime' => 'php-fpm', 'pools' => ['main'], 'maxChildren' => $c['maxChildren']]);
    } catch (Throwable $e) {
        sendJson(503, ['ready' => false, 'reason' => 'database unreachable: ' . $e->getMessage()]);
    }
    exit;
}
if ($path !== '/metrics') {
    sendJson(404, ['error' => 'not_found', 'message' => "no route $path"]);
    exit;
}

$v = Shm::read();
$persistent = $c['strategy'] === 'fixed';
// Children that hold a persistent connection and are still alive (a child recycled by FPM takes its connection with it).
$alive = 0;
foreach (array_keys($v['children'] ?? []) as $pid) {
    if (file_exists("/proc/$pid")) {
        $alive++;
    }
}
$inUse = max(0, (int) ($v['inUse'] ?? 0));
$total = $persistent ? max($alive, $inUse) : $inUse;
// Requests waiting for a connection: those inside the script not yet holding one, plus those
// nginx holds that no FPM child has taken yet (FPM's own status page is served by a busy pool's
// children, so it cannot answer exactly when the queue matters; nginx's stub_status always can).
$running = max(0, (int) ($v['running'] ?? 0));
$queued = 0;
$st = @file_get_contents('http://127.0.0.1:' . $c['port'] . '/nginx-status', false, stream_context_create(['http' => ['timeout' => 0.5]]));
if ($st !== false && preg_match('/Writing: (\d+)/', $st, $m)) {
    // Writing counts every request in progress upstream, this /metrics request and the status request among them.
    $queued = max(0, (int) $m[1] - 2 - $running);
}
$waiting = max(0, $running - $inUse) + $queued;
$out = [];
$g = function (string $name, string $type, float|int $val) use (&$out) {
    $out[] = "# TYPE $name $type";
    $out[] = "$name{pool=\"main\"} $val";
};
$g('labtarget_pool_total_conns', 'gauge', $total);
$g('labtarget_pool_idle_conns', 'gauge', max(0, $total - $inUse));
$g('labtarget_pool_acquired_conns', 'gauge', $inUse);
$g('labtarget_pool_max_conns', 'gauge', (int) $c['maxChildren']);
$g('labtarget_pool_waiting_requests', 'gauge', $waiting);
$g('labtarget_pool_acquire_total', 'counter', (int) ($v['acquires'] ?? 0));
$g('labtarget_pool_conns_created_total', 'counter', (int) ($v['created'] ?? 0));
$g('labtarget_pool_conns_closed_total', 'counter', (int) ($v['closed'] ?? 0));
$out[] = '# TYPE labtarget_pool_acquire_wait_seconds histogram';
foreach (WAIT_BUCKETS as $i => $b) {
    $out[] = "labtarget_pool_acquire_wait_seconds_bucket{pool=\"main\",le=\"$b\"} " . ($v['waitBucket'][$i] ?? 0);
}
$out[] = 'labtarget_pool_acquire_wait_seconds_bucket{pool="main",le="+Inf"} ' . (int) ($v['acquires'] ?? 0);
$out[] = 'labtarget_pool_acquire_wait_seconds_sum{pool="main"} ' . ($v['waitSum'] ?? 0);
$out[] = 'labtarget_pool_acquire_wait_seconds_count{pool="main"} ' . (int) ($v['acquires'] ?? 0);
$out[] = '# TYPE labtarget_db_errors_total counter';
foreach ($v['dbErrors'] ?? [] as $s => $n) {
    $out[] = "labtarget_db_errors_total{sqlstate=\"$s\"} $n";
}
$out[] = '# TYPE labtarget_db_too_many_clients_total counter';
$out[] = 'labtarget_db_too_many_clients_total ' . (int) ($v['tooMany'] ?? 0);
$out[] = '# TYPE labtarget_http_request_duration_seconds summary';
foreach ($v['http'] ?? [] as $k => $h) {
    $out[] = "labtarget_http_request_duration_seconds_sum{{$k}} {$h['sum']}";
    $out[] = "labtarget_http_request_duration_seconds_count{{$k}} {$h['count']}";
}
header('Content-Type: text/plain; version=0.0.4');
header('X-Instance-Id: ' . $c['instanceId']);
echo implode("\n", $out) . "\n";
