set breakpoint pending on
set pagination off
set confirm off
break steps.comp:21 if id == 4
run
print id
print start
print data.values[4]
delete
continue
