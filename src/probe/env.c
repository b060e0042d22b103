/*
 * env.c - the environment variables that steer the CUDA stack.
 *
 * Only variables in the table below are kept: the report must not leak a
 * user's unrelated secrets. The table says why each one matters.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe.h"
#include "util/str.h"

struct known_var {
	const char *name;
	enum env_kind kind;
};

static const struct known_var known_vars[] = {
	{ "PATH", ENV_PATHS },
	{ "LD_LIBRARY_PATH", ENV_PATHS },
	{ "LD_PRELOAD", ENV_PATHS },
	{ "CUDA_HOME", ENV_PATHS },
	{ "CUDA_PATH", ENV_PATHS },
	{ "CUDA_ROOT", ENV_PATHS },
	{ "CUDNN_PATH", ENV_PATHS },
	{ "VIRTUAL_ENV", ENV_PATHS },
	{ "CONDA_PREFIX", ENV_PATHS },
	{ "PYTHONPATH", ENV_PATHS },
	{ "PYTHONNOUSERSITE", ENV_PATHS },
	{ "HOME", ENV_PATHS },
	{ "PWD", ENV_PATHS },
	{ "PYENV_ROOT", ENV_PATHS },
	{ "PYENV_VERSION", ENV_PATHS },
	{ "CUDA_VISIBLE_DEVICES", ENV_VISIBILITY },
	{ "CUDA_DEVICE_ORDER", ENV_VISIBILITY },
	{ "SLURM_JOB_ID", ENV_VISIBILITY },
	{ "SLURMD_NODENAME", ENV_VISIBILITY },
	{ "SLURM_JOB_GPUS", ENV_VISIBILITY },
	{ "SLURM_STEP_GPUS", ENV_VISIBILITY },
	{ "GPU_DEVICE_ORDINAL", ENV_VISIBILITY },
	{ "NVIDIA_VISIBLE_DEVICES", ENV_CONTAINER },
	{ "NVIDIA_DRIVER_CAPABILITIES", ENV_CONTAINER },
	{ "NVIDIA_REQUIRE_CUDA", ENV_CONTAINER },
	{ "NVIDIA_DISABLE_REQUIRE", ENV_CONTAINER },
	{ "CUDA_VERSION", ENV_CONTAINER },
	{ "NV_CUDA_CUDART_VERSION", ENV_CONTAINER },
	{ "PYTORCH_CUDA_ALLOC_CONF", ENV_TUNING },
	{ "PYTORCH_ALLOC_CONF", ENV_TUNING },
	{ "TORCH_CUDA_ARCH_LIST", ENV_TUNING },
	{ "CUDA_MODULE_LOADING", ENV_TUNING },
	{ "CUDA_CACHE_PATH", ENV_TUNING },
	{ "CUDA_CACHE_MAXSIZE", ENV_TUNING },
	{ "CUDA_FORCE_PTX_JIT", ENV_DEBUG },
	{ "CUDA_DISABLE_PTX_JIT", ENV_DEBUG },
	{ "CUDA_CACHE_DISABLE", ENV_DEBUG },
	{ "CUDA_LAUNCH_BLOCKING", ENV_DEBUG },
	{ "CUDA_INJECTION64_PATH", ENV_DEBUG },
	{ "CUDA_INJECTION32_PATH", ENV_DEBUG },
	{ "NSIGHT_CUDA_DEBUGGER", ENV_DEBUG },
	{ "CUDA_DEVICE_WAITS_ON_EXCEPTION", ENV_DEBUG },
	{ "CUDA_ENABLE_COREDUMP_ON_EXCEPTION", ENV_DEBUG },
	{ "CUDA_PROFILE", ENV_DEBUG },
	{ "COMPUTE_PROFILE", ENV_DEBUG },
	{ "CUDA_MEMCHECK_PATCH_MODULE", ENV_DEBUG },
	{ "PYTORCH_NO_CUDA_MEMORY_CACHING", ENV_DEBUG },
	{ "TORCH_USE_CUDA_DSA", ENV_DEBUG },
	{ "NCCL_DEBUG", ENV_TUNING },
	{ "NCCL_P2P_DISABLE", ENV_TUNING },
	{ "NCCL_IB_DISABLE", ENV_TUNING },
	{ "NCCL_SOCKET_IFNAME", ENV_TUNING },
};

/* Classify one CUDA_VISIBLE_DEVICES token the way the driver parses it. */
static enum visible_kind visible_token_kind(const char *tok)
{
	if (str_is_digits(tok))
		return VISIBLE_INDICES;
	if (str_starts_with(tok, "MIG-"))
		return VISIBLE_MIG;
	if (str_starts_with(tok, "GPU-"))
		return VISIBLE_UUIDS;
	return VISIBLE_INVALID;
}

/*
 * CUDA reads the list left to right and stops at the first entry it cannot
 * use: "0,-1,1" exposes only GPU 0, "-1" or "" expose none.
 */
static void parse_visible(struct facts *f, const char *value)
{
	struct env_facts *env = &f->env;
	char buf[1024];
	char *next;
	enum visible_kind kind = VISIBLE_UNSET;

	str_copy(buf, sizeof(buf), value);
	str_trim(buf);
	if (!buf[0]) {
		env->visible = VISIBLE_EMPTY;
		return;
	}
	/* Not strtok: an empty entry ("0,,1") is an entry, and CUDA stops at it. */
	for (char *tok = buf; tok; tok = next) {
		enum visible_kind k;

		next = strchr(tok, ',');
		if (next)
			*next++ = '\0';
		str_trim(tok);
		k = visible_token_kind(tok);
		if (k == VISIBLE_INVALID) {
			str_copy(env->visible_invalid, sizeof(env->visible_invalid), tok);
			break;
		}
		if (k == VISIBLE_INDICES && env->visible_index_count >= MAX_PCI_GPUS)
			facts_dropped(f, "CUDA_VISIBLE_DEVICES indices", MAX_PCI_GPUS, 1);
		else if (k == VISIBLE_INDICES) {
			uint64_t v;

			/* Saturate: atoi wraps "4294967296" to GPU 0. */
			env->visible_indices[env->visible_index_count++] =
				str_to_u64(tok, &v) == 0 && v <= INT_MAX ? (int)v : INT_MAX;
		}
		kind = (kind == VISIBLE_UNSET || kind == k) ? k : VISIBLE_MIXED;
	}
	if (kind == VISIBLE_UNSET)
		kind = env->visible_invalid[0] == '-' || strcmp(env->visible_invalid, "none") == 0 ||
		       strcmp(env->visible_invalid, "NoDevFiles") == 0 ? VISIBLE_NONE : VISIBLE_INVALID;
	env->visible = kind;
}

/*
 * Record the known variables of ctx->envp only, first occurrence of each, values copied (facts owns them);
 * a copy that fails drops that variable. Then classify CUDA_VISIBLE_DEVICES as CUDA would read it.
 * Runs first: the probes after it read the environment from f, not envp.
 */
void probe_env(struct facts *f, const struct probe_ctx *ctx)
{
	struct env_facts *env = &f->env;

	env->visible = VISIBLE_UNSET;
	for (size_t k = 0; k < sizeof(known_vars) / sizeof(known_vars[0]); k++) {
		size_t nlen = strlen(known_vars[k].name);

		for (char *const *e = ctx->envp; e && *e; e++) {
			if (strncmp(*e, known_vars[k].name, nlen) != 0 || (*e)[nlen] != '=')
				continue;
			if (env->count >= MAX_ENV_VARS) {
				facts_dropped(f, "environment variables", MAX_ENV_VARS, 1);
				break;
			}
			env->vars[env->count].name = known_vars[k].name;
			env->vars[env->count].kind = known_vars[k].kind;
			env->vars[env->count].value = str_dup(*e + nlen + 1);
			if (!env->vars[env->count].value)
				break;
			env->count++;
			break;
		}
	}
	{
		const char *cvd = facts_env(f, "CUDA_VISIBLE_DEVICES");

		if (cvd)
			parse_visible(f, cvd);
	}
}
