#!/usr/bin/env bash
# A throw-away S3-compatible server for tests (issue 19): Debian's Ceph (one monitor, one OSD on memstore,
# radosgw), every part on 127.0.0.1, nothing kept after it stops.
#   scripts/s3-test-server.sh DIR PORT ACCESS_KEY SECRET_KEY
# Ports: PORT (S3 HTTP), PORT+1 (monitor), PORT+2..PORT+9 (OSD). Prints "ready" when the S3 API answers.
# Stop: kill the PIDs in DIR/pids. Needs: apt-get install --no-install-recommends ceph-mon ceph-osd radosgw ceph-common
set -euo pipefail
dir=$(realpath -m "$1"); port=$2; access=$3; secret=$4
mkdir -p "$dir/run" "$dir/mon" "$dir/osd" "$dir/log"
fsid=$(cat /proc/sys/kernel/random/uuid)
conf="$dir/ceph.conf"
cat > "$conf" <<CONF
[global]
fsid = $fsid
mon host = [v2:127.0.0.1:$((port + 1))]
ms bind msgr1 = false
ms bind port min = $((port + 2))
ms bind port max = $((port + 9))
public addr = 127.0.0.1
cluster addr = 127.0.0.1
auth cluster required = none
auth service required = none
auth client required = none
auth allow insecure global id reclaim = true
ms mon client mode = crc
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
mon allow pool size one = true
mon allow pool delete = true
mon warn on pool no redundancy = false
osd objectstore = memstore
memstore device bytes = 4294967296
osd crush chooseleaf type = 0
run dir = $dir/run
admin socket = $dir/run/\$name.asok
log file = $dir/log/\$name.log
pid file = $dir/run/\$name.pid
keyring = /dev/null
mon data = $dir/mon/\$cluster-\$id
osd data = $dir/osd/\$cluster-\$id
mgr initial modules =
[client.rgw]
rgw frontends = beast endpoint=127.0.0.1:$port
rgw dns name = 127.0.0.1
rgw thread pool size = 32
rgw enable usage log = false
CONF
monmaptool --create --fsid "$fsid" --addv a "[v2:127.0.0.1:$((port + 1))]" "$dir/monmap" >/dev/null
ceph-mon -c "$conf" --mkfs -i a --monmap "$dir/monmap" >/dev/null
ceph-mon -c "$conf" -i a
osd=$(ceph -c "$conf" osd create)
mkdir -p "$dir/osd/ceph-$osd"
ceph-osd -c "$conf" -i "$osd" --mkfs >/dev/null 2>&1
ceph-osd -c "$conf" -i "$osd"
radosgw -c "$conf" -n client.rgw
radosgw-admin -c "$conf" user create --uid=cutroom-test --display-name=cutroom-test --access-key="$access" --secret-key="$secret" >/dev/null
cat "$dir"/run/*.pid | tr '\n' ' ' > "$dir/pids"
for _ in $(seq 1 120); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo ready; exit 0; fi
  sleep 0.5
done
echo "radosgw did not answer on $port" >&2
exit 1
