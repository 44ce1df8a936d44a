# qpu_stride: one VCD DMA load (SDRAM -> VPM, memory pitch from the extended setup) and one VDW
# DMA store (VPM -> SDRAM with a row stride), both set up by the host in the uniforms.
# Uniforms: vcd_setup vcd_pitch_setup src vdw_setup vdw_stride_setup dst
        mov vr_setup, unif
        mov vr_setup, unif
        mov vr_addr, unif
        read vr_wait
        mov vw_setup, unif
        mov vw_setup, unif
        mov vw_addr, unif
        read vw_wait
        mov host_int, 1
        nop ; thrend
        nop
        nop
