#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Ansible module qfd_apply: a thin wrapper over 'qfd apply -J'.

qfd plans and applies; this module only hands it the document on stdin and
turns its JSON result into Ansible's: changed from qfd's top-level
"changed", check mode as --check (qfd then writes nothing), diff from the
old and new values of every changed item, and a failure as failed with
qfd's own one-line message.
"""

import json

from ansible.module_utils.basic import AnsibleModule

DOCUMENTATION = r"""
module: qfd_apply
short_description: Bring disk quotas to a declared state with qfd apply
description:
  - Passes I(state) to C(qfd apply -J -) (see qfd-apply(8) for the format)
    and reports what qfd changed.  Supports check mode and diff mode.
options:
  state:
    description: The qfd apply document, as a dictionary.
    type: dict
    required: true
  path:
    description: Apply a document of one filesystem to this path's (C(--path)).
    type: str
  raise_only:
    description: Never lower a limit (C(--raise-only)).
    type: bool
    default: false
  qfd:
    description: The qfd program.
    type: str
    default: qfd
"""


def item_key(item):
    """One name per item, for the diff: "/srv user alice", "/srv group grace",
    "/srv project directory www" (a project directory names its path)."""
    who = item.get("who")
    if "dir" in item:
        who = "directory " + item["dir"]
    return " ".join(str(x) for x in (item["path"], item["type"],
                                      who if who is not None else item["item"]))


def diff_of(result):
    before, after = {}, {}
    for item in result.get("items", []):
        if item.get("result") == "changed":
            before[item_key(item)] = item.get("old")
            after[item_key(item)] = item.get("new")
    return {"before": before, "after": after}


def main():
    module = AnsibleModule(
        argument_spec=dict(
            state=dict(type="dict", required=True),
            path=dict(type="str"),
            raise_only=dict(type="bool", default=False),
            qfd=dict(type="str", default="qfd"),
        ),
        supports_check_mode=True,
    )
    p = module.params
    cmd = [module.get_bin_path(p["qfd"], required=True), "apply", "-J"]
    if module.check_mode:
        cmd.append("--check")
    if p["path"]:
        cmd += ["--path", p["path"]]
    if p["raise_only"]:
        cmd.append("--raise-only")
    cmd.append("-")
    rc, out, err = module.run_command(cmd, data=json.dumps(p["state"]))
    result = None
    if out.strip():
        try:
            result = json.loads(out)
        except ValueError:
            module.fail_json(msg="qfd apply printed no JSON result", rc=rc,
                             stdout=out, stderr=err)
    if rc != 0:
        msg = err.strip().splitlines()
        module.fail_json(msg=msg[0] if len(msg) == 1 else err.strip() or
                         "qfd apply failed", rc=rc, result=result,
                         changed=bool(result and result.get("changed")))
    ret = dict(changed=bool(result["changed"]), result=result)
    if module._diff:
        ret["diff"] = diff_of(result)
    module.exit_json(**ret)


if __name__ == "__main__":
    main()
