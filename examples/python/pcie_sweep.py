# %% [markdown]
# # A PCIe lane sweep from Python (hetvp)
#
# Runs the default platform's host-to-device DMA copies for 1, 4 and 16 PCIe gen2 lanes and plots
# bandwidth against copy size. Each `# %%` is a Jupyter cell (VS Code, JupyterLab with jupytext);
# as a script it writes `pcie_sweep.png`:
#
#     python3 examples/python/pcie_sweep.py [OUT.png]
#
# `import hetvp` works after `pip install --no-build-isolation .` (docs/library.md, "Python") or
# with PYTHONPATH=build/python. matplotlib: Debian's python3-matplotlib.

# %%
import sys

import hetvp

print("hetvp", hetvp.__version__)

# %% [markdown]
# The configuration is a Python dict: the shipped default (found inside the installed package,
# or in the source tree) with the workload replaced. Each point is one `hetvp.run`; the seed is
# the config's unless `seed=` is given.

# %%
import os

import yaml

here = os.path.dirname(os.path.abspath(__file__)) if "__file__" in globals() else os.getcwd()
candidates = [os.path.join(os.path.dirname(hetvp.__file__), "configs", "default.yaml"),
              os.path.join(here, "..", "..", "configs", "default.yaml")]
base = yaml.safe_load(open(next(p for p in candidates if os.path.exists(p))))
base["workload"] = {"name": "transfer", "cpu": "cpu",
                    "args": {"min_size": "4 KiB", "max_size": "4 MiB", "methods": "dma", "directions": "htod"}}

results = {}
for lanes in (1, 4, 16):
    r = hetvp.run(base, overrides={"pcie0.lanes": lanes})
    assert r["run"]["status"] == "pass", r["summary"]
    results[lanes] = r["csv"]  # rows with typed cells: size_bytes is an int, bandwidth_MBps a float
    print(f"{lanes:2d} lanes: {len(r['csv'])} sizes, largest copy {r['csv'][-1]['bandwidth_MBps']:.0f} MB/s")

# %% [markdown]
# With pandas installed, `r.table` is a DataFrame; here plain rows are enough.

# %%
import matplotlib

if "ipykernel" not in sys.modules:
    matplotlib.use("Agg")  # a script: draw into a file
import matplotlib.pyplot as plt

# Okabe & Ito's colour-blind-safe palette.
colours = {1: "#0072B2", 4: "#D55E00", 16: "#009E73"}
fig, ax = plt.subplots(figsize=(8, 5))
for lanes, rows in results.items():
    ax.plot([row["size_bytes"] for row in rows], [row["bandwidth_MBps"] for row in rows], marker="o",
            color=colours[lanes], label=f"PCIe gen2 x{lanes}")
ax.set_xscale("log", base=2)
ticks = [4096 * 4 ** k for k in range(6)]
ax.set_xticks(ticks, [f"{t // 1024} KiB" if t < 1 << 20 else f"{t >> 20} MiB" for t in ticks])
ax.set_xlabel("copy size (bytes, binary units)")
ax.set_ylabel("bandwidth (MB/s)")
ax.set_title("Host-to-device DMA bandwidth against copy size (hetvp, default platform)")
ax.grid(True, which="both", alpha=0.3)
ax.legend(loc="upper left", frameon=True)
fig.tight_layout()

# %%
out = sys.argv[1] if len(sys.argv) > 1 and not sys.argv[1].startswith("-") else "pcie_sweep.png"
if "ipykernel" in sys.modules:
    plt.show()
else:
    fig.savefig(out, dpi=100)
    print("wrote", out)
