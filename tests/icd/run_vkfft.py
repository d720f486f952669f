#!/usr/bin/env python3
"""Runs VkFFTCheck on the spvbridge ICD (the verdict) and on lavapipe (the
peer), and prints both side by side.

The verdict is VkFFTCheck's on spvbridge: every transform within its error
limit against FFTW, and no message from the Khronos validation layer, which
is on in both runs. lavapipe's run shows the same program is right there
too and gives the times to compare; a failure or timeout of the peer is
reported, never a verdict, and no verdict depends on either's speed.

  run_vkfft.py --check VKFFTCHECK --icd SPVB_ICD_JSON --peer LVP_ICD_JSON
"""
import argparse
import os
import resource
import subprocess
import sys


def run(check, manifest):
    env = dict(os.environ, VK_ICD_FILENAMES=manifest, VK_DRIVER_FILES=manifest,
               VK_INSTANCE_LAYERS="VK_LAYER_KHRONOS_validation")
    # Limit CPU time, not wall time: a loaded machine slows both alike.
    def limit():
        resource.setrlimit(resource.RLIMIT_CPU, (1200, 1200))
    result = subprocess.run([check], env=env, capture_output=True, text=True,
                            preexec_fn=limit)
    return result.returncode, result.stdout + result.stderr


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--check", required=True)
    parser.add_argument("--icd", required=True)
    parser.add_argument("--peer", required=True)
    args = parser.parse_args()

    code, ours = run(args.check, args.icd)
    print("== spvbridge ICD ==")
    print(ours, end="")
    if os.path.exists(args.peer):
        peer_code, peer = run(args.check, args.peer)
        print("== lavapipe (peer) ==")
        print(peer, end="")
        if peer_code != 0:
            print(f"note: lavapipe's run ended with {peer_code}")
    else:
        print(f"note: no lavapipe at {args.peer}: no peer run")
    if code != 0:
        print(f"error: VkFFT on the spvbridge ICD failed (exit {code})")
    messages = [line for line in ours.splitlines()
                if "VUID" in line or "Validation Error" in line or
                "Validation Warning" in line]
    for line in messages:
        print(f"error: the validation layer on the spvbridge ICD: {line}")
    return 1 if code != 0 or messages else 0


if __name__ == "__main__":
    sys.exit(main())
