#!/bin/sh
# Stand-in for hetvp in tests/sweep/failures.sh (HETVP_SWEEP_EXE): a point with pcie0.lanes=1
# crashes (SIGSEGV), one with pcie0.lanes=4 hangs; every other point runs the real $HETVP_REAL.
case " $* " in
  *" pcie0.lanes=1 "*) kill -SEGV $$ ;;
  *" pcie0.lanes=4 "*) exec sleep 60 ;;
esac
exec "$HETVP_REAL" "$@"
