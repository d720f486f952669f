# A gdb session in vkcube's fragment shader for one pixel (SPVB_DEBUG_PIXEL).
# vkcube's modules carry no debug information: the driver writes the
# disassembly of each, and the fragment shader (its second module) is
# stepped there. The first stop, at the top of main, says which file that
# is; the session then stops where main returns, for every fragment of the
# pixel, and prints what the shader computed.
set breakpoint pending on
set pagination off
break shader_module_2.spvasm:main
run
python
listing = gdb.selected_frame().find_sal().symtab.fullname()
lines = open(listing).read().splitlines()
end_of_main = next(i + 1 for i, line in enumerate(lines)
                   if line.split() == ["OpReturn"])
gdb.execute("break %s:%d" % (listing, end_of_main))
end
delete 1
commands 2
print light
print normal
print uFragColor
continue
end
continue
