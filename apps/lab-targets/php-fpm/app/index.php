<?php
// The request routes of the php-fpm lab target, served by the measured FPM pool (pm.max_children
// = the pool config's max connections). /ready and /metrics are served by a separate one-child
// pool (ops.php), so they answer even when every app child is busy.
declare(strict_types=1);
require __DIR__ . '/lib.php';

$path = parse_url($_SERVER['REQUEST_URI'] ?? '/', PHP_URL_PATH);
$method = $_SERVER['REQUEST_METHOD'] ?? 'GET';
$t0 = hrtime(true);
$status = 200;
Shm::update(function (array $v) { $v['running'] = ($v['running'] ?? 0) + 1; return $v; });
register_shutdown_function(fn () => Shm::update(function (array $v) { $v['running']--; return $v; }));
try {
    switch ("$method $path") {
        case 'GET /health':
            connect()->query('SELECT 1')->fetchAll();
            sendJson(200, ['status' => 'ok', 'pool' => 'main', 'instanceId' => cfg()['instanceId']], true);
            break;
        case 'GET /roles':
            $sql = sprintf('SELECT r.id AS rid, r.name AS rname, r.description AS rdesc, p.id AS pid, p.name AS pname, p.resource AS pres, p.action AS pact FROM %s r LEFT JOIN %s rp ON rp.role_id = r.id LEFT JOIN %s p ON p.id = rp.permission_id ORDER BY r.id, p.id', table('roles'), table('role_permissions'), table('permissions'));
            $out = [];
            try {
                foreach (connect()->query($sql, PDO::FETCH_ASSOC) as $r) {
                    $id = (int) $r['rid'];
                    if (!$out || $out[count($out) - 1]['id'] !== $id) {
                        $out[] = ['id' => $id, 'name' => $r['rname'], 'description' => $r['rdesc'], 'permissions' => []];
                    }
                    if ($r['pid'] !== null) {
                        $out[count($out) - 1]['permissions'][] = ['id' => (int) $r['pid'], 'name' => $r['pname'], 'resource' => $r['pres'], 'action' => $r['pact']];
                    }
                }
            } catch (PDOException $e) {
                throw dbError($e);
            }
            sendJson(200, $out, true);
            break;
        case 'GET /query':
            $rows = intParam('rows', 100, 0, (int) cfg()['maxRows']);
            if ($rows === null) {
                throw new HttpError(400, 'bad_rows', 'rows must be an integer in [0, --max-rows]');
            }
            $fields = intParam('fields', 10, 0, 1000);
            if ($fields === null) {
                throw new HttpError(400, 'bad_fields', 'fields must be an integer in [0, 1000]');
            }
            $cols = implode(', ', array_merge(['id'], array_map(fn ($i) => "f$i", $fields > 0 ? range(1, $fields) : [])));
            try {
                $st = connect()->prepare("SELECT $cols FROM " . table('wide_rows') . ' ORDER BY id LIMIT ?');
                $st->bindValue(1, $rows, PDO::PARAM_INT);
                $st->execute();
                // As the seed's PHP service did: the whole result, then json_encode.
                $result = $st->fetchAll(PDO::FETCH_ASSOC);
            } catch (PDOException $e) {
                throw dbError($e);
            }
            sendJson(200, $result, true);
            break;
        case 'GET /work':
        case 'POST /work':
            $ms = intParam('ms', 100, 0, (int) cfg()['maxWorkMs']);
            if ($ms === null) {
                throw new HttpError(400, 'bad_ms', 'ms must be an integer in [0, --max-work]');
            }
            $write = $method === 'POST' || ($_GET['write'] ?? '') === '1';
            $pdo = connect();
            $sleep = dialect() === 'pgsql' ? 'SELECT pg_sleep(' . ($ms / 1000) . ')' : 'SELECT SLEEP(' . ($ms / 1000) . ')';
            try {
                if ($write) {
                    $pdo->beginTransaction();
                    $pdo->query($sleep)->fetchAll();
                    $st = $pdo->prepare('UPDATE ' . table('counters') . ' SET hits = hits + 1, touched_at = now() WHERE id = ?');
                    $st->execute([random_int(1, 1000)]);
                    $pdo->commit();
                } else {
                    $pdo->query($sleep)->fetchAll();
                }
            } catch (PDOException $e) {
                if ($pdo->inTransaction()) {
                    $pdo->rollBack();
                }
                throw dbError($e);
            }
            sendJson(200, ['ms' => $ms, 'write' => $write, 'pool' => 'main', 'instanceId' => cfg()['instanceId']], true);
            break;
        case 'POST /login':
            // One query on the request's connection.
            $creds = parseLogin((string) file_get_contents('php://input', false, null, 0, MAX_LOGIN_BODY + 1));
            if ($creds === null) {
                throw new HttpError(400, 'bad_login', MSG_BAD_LOGIN);
            }
            try {
                $st = connect()->prepare('SELECT id, password FROM ' . table('users') . ' WHERE username = ?');
                $st->execute([$creds['username']]);
                $user = $st->fetch(PDO::FETCH_ASSOC);
            } catch (PDOException $e) {
                throw dbError($e);
            }
            if ($user === false || !hash_equals((string) $user['password'], $creds['password'])) {
                throw new HttpError(401, 'bad_credentials', MSG_BAD_CREDENTIALS);
            }
            $id = (int) $user['id'];
            sendJson(200, ['token' => token($id), 'userId' => $id], true);
            break;
        case 'GET /me':
            // The token is verified without the database; then its user is read.
            $id = bearerUser($_SERVER['HTTP_AUTHORIZATION'] ?? null);
            if ($id === null) {
                throw new HttpError(401, 'unauthorized', MSG_UNAUTHORIZED);
            }
            try {
                $st = connect()->prepare('SELECT username FROM ' . table('users') . ' WHERE id = ?');
                $st->execute([$id]);
                $username = $st->fetchColumn();
            } catch (PDOException $e) {
                throw dbError($e);
            }
            if ($username === false) {
                throw new HttpError(404, 'user_not_found', MSG_USER_NOT_FOUND);
            }
            sendJson(200, ['id' => $id, 'username' => (string) $username], true);
            break;
        case 'POST /upload':
            throw new HttpError(501, 'not_supported', 'the php-fpm runtime has no /upload');
        default:
            throw new HttpError(404, 'not_found', "no route $method $path");
    }
} catch (HttpError $e) {
    $status = $e->status;
    sendJson($e->status, ['error' => $e->codeName, 'message' => $e->getMessage()] + $e->extra);
}
$secs = (hrtime(true) - $t0) / 1e9;
$route = in_array($path, ['/health', '/roles', '/query', '/work', '/upload', '/login', '/me'], true) ? $path : 'other';
Shm::update(function (array $v) use ($route, $status, $secs) {
    $k = "route=\"$route\",code=\"$status\"";
    $v['http'][$k]['sum'] = ($v['http'][$k]['sum'] ?? 0) + $secs;
    $v['http'][$k]['count'] = ($v['http'][$k]['count'] ?? 0) + 1;
    return $v;
});
