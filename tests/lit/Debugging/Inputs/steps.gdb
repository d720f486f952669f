set breakpoint pending on
set pagination off
set confirm off
break steps.comp:21 if id == 4
run
print id
print start
print gl_GlobalInvocationID
print data.values[4]
step
next
next
next
print n
delete
break steps.comp:24 if id == 4
continue
print tile
print steps
next
print next
delete
continue
