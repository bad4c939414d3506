// cuprobe/ptx/detail/cccl_ptx.cuh: the CCCL cuda::ptx instructions that cuprobe's ptx/ wraps.
//
// <cuda/ptx> is 48k lines once preprocessed (every instruction of every target, tcgen05 and
// multimem among them); the twelve instruction headers below are what cuprobe calls, and cost
// a tenth of it in every translation unit. CCCL documents <cuda/ptx> as the entry point and
// keeps one header per instruction under cuda/__ptx/instructions/; should a CCCL release move
// them, this file falls back to the entry point. ptx/timer.cuh includes only get_sreg's,
// by the same rule.
#pragma once

#if defined(__has_include) && __has_include(<cuda/__ptx/instructions/get_sreg.h>)
#include <cuda/__ptx/instructions/barrier_cluster.h>
#include <cuda/__ptx/instructions/cp_async_bulk.h>
#include <cuda/__ptx/instructions/cp_async_bulk_commit_group.h>
#include <cuda/__ptx/instructions/cp_async_bulk_tensor.h>
#include <cuda/__ptx/instructions/cp_async_bulk_wait_group.h>
#include <cuda/__ptx/instructions/fence.h>
#include <cuda/__ptx/instructions/get_sreg.h>
#include <cuda/__ptx/instructions/getctarank.h>
#include <cuda/__ptx/instructions/mbarrier_arrive.h>
#include <cuda/__ptx/instructions/mbarrier_expect_tx.h>
#include <cuda/__ptx/instructions/mbarrier_init.h>
#include <cuda/__ptx/instructions/mbarrier_wait.h>
#else
#include <cuda/ptx>
#endif
