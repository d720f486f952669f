"""The type stubs editors read describe the package as it is: the same
public names, and the same parameters for every function and method."""

import ast
import inspect
import pathlib

import spvbridge

STUB = pathlib.Path(spvbridge.__file__).with_name("__init__.pyi")


def stub_definitions():
    tree = ast.parse(STUB.read_text())
    return {node.name: node for node in tree.body
            if isinstance(node, (ast.ClassDef, ast.FunctionDef))}


def parameters(function: ast.FunctionDef):
    args = function.args
    return ([a.arg for a in args.posonlyargs + args.args],
            [a.arg for a in args.kwonlyargs])


def runtime_parameters(function):
    signature = inspect.signature(function)
    positional = [name for name, p in signature.parameters.items()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    keyword = [name for name, p in signature.parameters.items()
               if p.kind == p.KEYWORD_ONLY]
    return positional, keyword


def test_stub_names_are_the_public_names():
    assert set(stub_definitions()) == set(spvbridge.__all__)


def test_stub_signatures_match():
    definitions = stub_definitions()
    for name in ("compile", "draw", "run_amber", "set_kernel_cache"):
        assert parameters(definitions[name]) == runtime_parameters(
            getattr(spvbridge, name)), name
    kernel = {node.name: node for node in definitions["Kernel"].body
              if isinstance(node, ast.FunctionDef)}
    for name in ("dispatch", "reflect", "disassemble"):
        assert parameters(kernel[name]) == runtime_parameters(
            getattr(spvbridge.Kernel, name)), name


def test_public_functions_have_docstrings():
    for name in ("compile", "draw", "run_amber", "set_kernel_cache"):
        assert getattr(spvbridge, name).__doc__, name
    for name in ("dispatch", "reflect", "disassemble"):
        assert getattr(spvbridge.Kernel, name).__doc__, name
