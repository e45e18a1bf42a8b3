"""The network path of compare.py (net_latency, net_bw): how each MPI is
made to send between two ranks of this machine over the network rather than
shared memory, and a check, by system-call trace, that it really did.

- shmpi: `shmpirun --fake-nodes 2` gives the two ranks different host
  names, so shmpi's locality puts them on different nodes and they talk
  through UCX over loopback.
- Open MPI 4.1: either pml ucx with only the tcp and self transports
  (`--net-openmpi ucx`, the default: the same library and transport shmpi
  uses; its btls also only tcp and self) or ob1 with only the tcp and self
  btls (`--net-openmpi tcp`). Open
  MPI's pml ucx refuses to start without `pml_ucx_tls any` and
  `pml_ucx_devices any` when no InfiniBand-class device is present.
- MPICH 4.0 (Debian: ch4:ucx): `MPIR_CVAR_NOLOCAL=1` (no shared memory
  between local ranks) and UCX with only tcp and self.
All three are held to the same UCX transports and device (`UCX_TLS=tcp,self`,
`UCX_NET_DEVICES=lo`, the device two "nodes" of one machine share): left to
its defaults, UCX opens a tcp interface on every device it finds and polls
each one (an epoll_wait apiece) on every progress call; shmpi ran so until
the 2026-12-07 run, about 0.7 us per message and 0.75x the peers at 256-512
KiB that the peers, held to lo, did not pay.

The check runs each MPI's two-rank osu_latency once under strace and fails
the MPI's network runs when a rank reads or writes another process's
memory (process_vm_readv/writev at a foreign pid; UCX and MPICH probe CMA
on themselves), attaches a SysV segment it did not create, takes another
process's file descriptor (pidfd_getfd, /proc/PID/fd), or both ranks open
the same file in /dev/shm (other than by an exclusive create); and when
fewer than 100 socket sends carried the traffic.
"""

import glob
import os
import re
import shutil
import subprocess

NET_BENCHES = {"net_latency": "latency", "net_bw": "bw"}  # name -> osu program
UCX_NET = ["UCX_TLS=tcp,self", "UCX_NET_DEVICES=lo"]
TRACED = "process_vm_readv,process_vm_writev,shmget,shmat,openat,pidfd_getfd,sendto,sendmsg,writev"


def shmpi_has_fake_nodes(run):
    """Whether this shmpirun can place ranks on fake nodes (issue 25)."""
    try:
        out = subprocess.run([run, "--help"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return "--fake-nodes" in out.stdout + out.stderr


def launch_prefix(impl, run, n, openmpi_mode, root):
    """The launcher part of a network-path command line for n ranks."""
    if impl == "shmpi":
        return ["env"] + UCX_NET + [run, "-n", str(n), "--fake-nodes", str(n)]
    if impl == "openmpi":
        cmd = [run, "-n", str(n)] + (["--allow-run-as-root"] if root else [])
        if openmpi_mode == "tcp":
            return cmd + ["--mca", "pml", "ob1", "--mca", "btl", "self,tcp"]
        # The btls are left to tcp too, so no shared-memory segment is made.
        cmd += ["--mca", "pml", "ucx", "--mca", "pml_ucx_tls", "any", "--mca", "pml_ucx_devices", "any",
                "--mca", "btl", "self,tcp"]
        for var in UCX_NET:
            cmd += ["-x", var]
        return cmd
    cmd = [run, "-n", str(n), "-genv", "MPIR_CVAR_NOLOCAL", "1"]
    for var in UCX_NET:
        cmd += ["-genv"] + var.split("=", 1)
    return cmd


def trace_problems(path):
    """(problems, /dev/shm paths opened, socket sends) of one rank's
    `strace -f` output."""
    with open(path, errors="replace") as f:
        lines = f.read().splitlines()
    own = {line.split()[0] for line in lines if line.split() and line.split()[0].isdigit()}
    created, problems, shm_files, sends = set(), [], set(), 0
    for line in lines:
        m = re.match(r"\d+\s+(\w+)\((.*)", line)
        if not m or "= -1" in line:
            continue
        call, args = m.groups()
        if call in ("process_vm_readv", "process_vm_writev") and args.split(",")[0] not in own:
            problems.append(f"{call} at pid {args.split(',')[0]}")
        elif call == "shmget":
            created.add(line.rsplit("=", 1)[-1].strip())
        elif call == "shmat" and args.split(",")[0] not in created:
            problems.append(f"shmat of another process's segment {args.split(',')[0]}")
        elif call == "pidfd_getfd" or (call == "openat" and re.search(r'"/proc/\d+/fd/', args)):
            problems.append(f"{call}: took another process's file descriptor")
        elif call == "openat" and '"/dev/shm/' in args and "O_EXCL" not in args:
            # O_EXCL: a file of its own (Open MPI's probe "open_mpi.0000",
            # made and removed by each rank in turn).
            shm_files.add(args.split(",")[1].strip())
        elif call in ("sendto", "sendmsg") or (call == "writev" and not args.startswith(("1,", "2,"))):
            sends += 1
    return problems, shm_files, sends


def verify(impl, prefix, binary, trace_dir, timeout):
    """One line saying whether impl's network run avoided shared memory."""
    if shutil.which("strace") is None:
        return f"{impl}: network path not verified (strace not installed)"
    os.makedirs(trace_dir, exist_ok=True)
    for old in glob.glob(os.path.join(trace_dir, impl + ".*")):
        os.remove(old)
    wrapper = ['sh', '-c', f'exec strace -f -qq -e trace={TRACED} -o "$0.$$" "$@"',
               os.path.join(trace_dir, impl), binary, "-m", "0:65536", "-i", "50", "-x", "5"]
    try:
        res = subprocess.run(prefix + wrapper, capture_output=True, text=True, timeout=timeout,
                             stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return f"{impl}: network path NOT verified: the traced run timed out"
    traces = sorted(glob.glob(os.path.join(trace_dir, impl + ".*")))
    if res.returncode != 0 or len(traces) != 2:
        return f"{impl}: network path NOT verified: traced run exit {res.returncode}, {len(traces)} traces"
    problems, sends, opened = [], 0, []
    for path in traces:
        p, files, s = trace_problems(path)
        problems += p
        opened.append(files)
        sends += s
    problems += [f"both ranks opened {name}" for name in opened[0] & opened[1]]
    if problems or sends < 100:
        why = "; ".join(sorted(set(problems))[:3]) or f"only {sends} socket sends"
        return f"{impl}: network path NOT verified: {why} (traces in {trace_dir})"
    return (f"{impl}: network path verified by strace (two-rank osu_latency to 64 KiB): no access to "
            f"another process's memory, segments, descriptors or /dev/shm; {sends} socket sends")
