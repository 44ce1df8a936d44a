# qpu_reduce: each QPU sums its chunk (16 floats per TMU lookup) into 16 partial sums and puts
# them in its VPM row; the others signal semaphore 0, QPU 0 waits for all of them (sacq), reads
# the rows back (vr_setup, NUM = QPUs), adds them, folds the 16 elements with vector rotations
# and stores the total (in every element) with a VDW DMA.
# Uniforms: index partners src nblocks vpm_write_setup vpm_read_setup vdw_setup result
        mov ra1, unif            # index (0 = the master)
        mov ra2, unif            # partners (QPUs - 1)
        mov ra3, unif            # this QPU's chunk
        mov ra4, unif            # 16-float blocks in it
        mov ra5, unif            # VPM write setup (row = index)
        mov ra6, unif            # VPM read setup (rows 0 .. partners)
        mov ra7, unif            # VDW setup (row 0)
        mov ra8, unif            # result address
        mov r0, elem_num
        shl r0, r0, 2
        add r1, ra3, r0
        ldi r2, 0
        ldi rb9, 64
:blk
        mov tmu0_s, r1
        add r1, r1, rb9
        sub.setf ra4, ra4, 1
        nop ; ldtmu0
        brr.anynz :blk
        fadd r2, r2, r4
        nop
        nop
        mov vw_setup, ra5        # the partial sums into VPM row `index`
        mov vpm, r2
        mov.setf -, ra1
        brr.allz :master
        nop
        nop
        nop
        srel 0                   # a worker: row written
        brr :done
        nop
        nop
        nop
:master
        mov.setf r3, ra2
        brr.allz :sum
        nop
        nop
        nop
:wait
        sacq 0
        sub.setf r3, r3, 1
        brr.anynz :wait
        nop
        nop
        nop
:sum
        mov vr_setup, ra6
        ldi r2, 0
        add r3, ra2, 1
:acc
        sub.setf r3, r3, 1
        fadd r2, r2, vpm
        brr.anynz :acc
        nop
        nop
        nop
        nop
        nop ; v8min r1, r2, r2 ; rot 8
        fadd r2, r2, r1
        nop
        nop ; v8min r1, r2, r2 ; rot 4
        fadd r2, r2, r1
        nop
        nop ; v8min r1, r2, r2 ; rot 2
        fadd r2, r2, r1
        nop
        nop ; v8min r1, r2, r2 ; rot 1
        fadd r2, r2, r1
        mov vw_setup, ra5
        mov vpm, r2
        mov vw_setup, ra7
        mov vw_addr, ra8
        read vw_wait
:done
        mov host_int, 1
        nop ; thrend
        nop
        nop
