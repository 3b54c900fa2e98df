#!/bin/bash
# HKU Table 1 on the GPU: value-net MSE over 3 independent random splits, and the input-plane ablation.
export PYTHONPATH=src PYTHONUNBUFFERED=1
cd "$(dirname "$0")"
t0=$(date +%s)
python3 -m bitflip.cli.main data build --wthor wthor --out /tmp/shards --quiet | tail -2
echo "build $(( $(date +%s) - t0 ))s"
python3 -m bitflip.cli.main train value --config configs/value.toml --shards /tmp/shards --out /tmp/splits --quiet --max-minutes 0.5 --split-seeds 0,1,2 2>&1 | tee $OUT/splits.log | tail -6
echo "splits $(( $(date +%s) - t0 ))s"
for f in raw border cxc freemove; do
  sed "s/^features = .*/features = \"$f\"/" configs/value.toml > configs/value_$f.toml
  python3 -m bitflip.cli.main train value --config configs/value_$f.toml --shards /tmp/shards --out /tmp/abl_$f --quiet --max-minutes 0.4 > /tmp/abl_$f.log 2>&1
  echo "== $f" | tee -a $OUT/ablation.log; cat /tmp/abl_$f/result.json | tee -a $OUT/ablation.log; echo
  echo "t $(( $(date +%s) - t0 ))s"
done
