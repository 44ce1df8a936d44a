# pi_scale: the job of the Pi-ported host program (workload qpu_pi, docs/qpu.md "Mailbox"). Each
# QPU maps its own blocks of 16 floats: y = x < 0 ? x + 1 : x * 2, the two results written to r2
# by the add and the mul ALU in one instruction under complementary conditions (as Pi programs
# do), then stores each block through its VPM row with a VDW DMA. All addresses are bus addresses
# as the Pi firmware hands them out (with the cache-alias bits, e.g. 0xC0000000 | phys).
# Uniforms: src dst nblocks vpm_write_setup vdw_setup
        mov ra1, unif            # src (bus address)
        mov ra2, unif            # dst (bus address)
        mov ra3, unif            # blocks of 16 floats
        mov ra4, unif            # VPM write setup (row = QPU request number)
        mov ra5, unif            # VDW setup (the same row, 16 words)
        mov r0, elem_num
        shl r0, r0, 2
        add r1, ra1, r0          # element i reads src + 4 i
        ldi rb6, 64
        mov r3, ra2
        ldi ra7, 2.0
:blk
        mov tmu0_s, r1
        add r1, r1, rb6
        nop ; ldtmu0
        mov.setf -, r4           # N: x < 0
        fadd.ifn r2, r4, 1.0 ; fmul.ifnn r2, r4, ra7
        mov vw_setup, ra4
        mov vpm, r2
        mov vw_setup, ra5
        mov vw_addr, r3
        read vw_wait
        add r3, r3, rb6
        sub.setf ra3, ra3, 1
        brr.anynz :blk
        nop
        nop
        nop
        nop ; thrend
        nop
        nop
