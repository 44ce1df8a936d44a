# qpu_peak: a dual-issue fmul + fadd on all 16 elements every instruction, `iterations` times.
# Uniforms: iterations. The host counts the flops of the loop (labels loop .. loop_end) from the
# assembled code and divides by the simulated time.
.set counter, ra0
        mov counter, unif
        ldi r0, 1.0
        ldi r1, 0.5
        ldi r2, 1.0
        ldi r3, 1.0
:loop
.rep 4092
        fadd r0, r0, r1 ; fmul r2, r2, r3
.endr
        sub.setf counter, counter, 1 ; fmul r2, r2, r3
        brr.anynz :loop
        fadd r0, r0, r1 ; fmul r2, r2, r3       # three delay slots
        fadd r0, r0, r1 ; fmul r2, r2, r3
        fadd r0, r0, r1 ; fmul r2, r2, r3
:loop_end
        mov host_int, 1
        nop ; thrend
        nop
        nop
