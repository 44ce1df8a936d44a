# qpu_sgemm: C = A x B (N x N floats, row-major), 1 x 16 output tiles. Each QPU takes every nq-th
# row. A[i][k] is fetched by a TMU lookup with all 16 elements at one address (a broadcast), the
# row B[k][j..j+15] by a 16-address lookup; four k steps (8 requests, the TMU queue) are in
# flight at once. A finished tile goes through the QPU's VPM row and a VDW DMA store to C.
# Uniforms: nrows arow crow B row_step kiters(N/4) jblocks(N/16) N*4 2N*4 3N*4 4N*4 vpm_setup vdw_setup
        mov ra1, unif            # rows left
        mov ra2, unif            # A row address
        mov ra3, unif            # C row address
        mov ra20, unif           # B
        mov rb4, unif            # bytes between this QPU's rows
        mov ra5, unif            # k iterations (4 k each)
        mov ra6, unif            # column blocks
        mov rb7, unif            # N*4   (B row k+1)
        mov rb8, unif            # 2N*4
        mov rb9, unif            # 3N*4
        mov rb10, unif           # 4N*4
        mov ra11, unif           # VPM write setup (this QPU's row)
        mov ra12, unif           # VDW setup (1 x 16 words from that row)
        mov r0, elem_num
        shl rb13, r0, 2          # element * 4
        ldi rb14, 16
        ldi rb19, 64
:row
        mov ra15, ra6            # column blocks left
        add ra16, ra20, rb13     # B column address of each element
        mov ra17, ra3            # C address
:col
        mov r0, ra2              # A[i][k] (same address in every element)
        mov r1, ra16             # B[k][j + element]
        mov ra18, ra5
        ldi r2, 0
        ldi ra10, 0              # the 16 sums
:k
        mov tmu0_s, r0
        mov tmu0_s, r1
        add tmu0_s, r0, 4
        add tmu0_s, r1, rb7
        add tmu0_s, r0, 8
        add tmu0_s, r1, rb8
        add tmu0_s, r0, 12
        add tmu0_s, r1, rb9
        add r0, r0, rb14
        add r1, r1, rb10
.rep 4
        nop ; ldtmu0             # r4 = A[i][k]
        mov r3, r4
        nop ; ldtmu0             # r4 = B[k][j..j+15]
        fadd ra10, ra10, r2 ; fmul r2, r3, r4
.endr
        sub.setf ra18, ra18, 1
        brr.anynz :k
        nop
        nop
        nop
        fadd r2, ra10, r2        # plus the last product
        read vw_wait             # the previous tile's store has left the VPM row
        mov vw_setup, ra11
        mov vpm, r2
        mov vw_setup, ra12
        mov vw_addr, ra17
        add ra16, ra16, rb19     # next 16 columns of B and C
        add ra17, ra17, rb19
        sub.setf ra15, ra15, 1
        brr.anynz :col
        nop
        nop
        nop
        add ra2, ra2, rb4        # this QPU's next row
        add ra3, ra3, rb4
        sub.setf ra1, ra1, 1
        brr.anynz :row
        nop
        nop
        nop
        read vw_wait
        mov host_int, 1
        nop ; thrend
        nop
        nop
