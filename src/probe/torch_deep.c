/*
 * torch_deep.c - the deep probe: run the diagnosed interpreter, import
 * torch and ask it what it sees. Bounded by a deadline, no shell. Never
 * under --root (nothing may run there), never with --fast or --static.
 *
 * It must see what the user's own `import torch` sees, yet run nothing
 * else and change nothing. So the interpreter keeps the environment
 * variables that decide which torch is imported and how it finds CUDA
 * (PYTHONPATH and the user site stay: they are how many people install
 * torch) and loses the rest; it runs from "/" with -B (no __pycache__
 * written into the diagnosed environment), and the probe's first statement
 * drops the current-directory entry Python puts first on sys.path for -c
 * (what -P does, on any Python 3), so no json.py or torch/ lying where
 * gpudoctor was started is imported.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "probe/probe_internal.h"
#include "util/str.h"
#include "util/subprocess.h"

#define DEEP_OUTPUT_MAX (64 * 1024)

/* Reports as one JSON line on stdout; warnings torch raises are caught, not printed. */
static const char deep_script[] =
	"import sys\n"
	"if sys.path and sys.path[0] in ('', '.'):\n"
	"    del sys.path[0]\n"
	"import json, warnings\n"
	"r = {}\n"
	"caught = []\n"
	"warnings.showwarning = lambda m, *a, **k: caught.append(str(m))\n"
	"try:\n"
	"    import torch\n"
	"    r['version'] = torch.__version__\n"
	"    r['file'] = getattr(torch, '__file__', '') or ''\n"
	"    r['cuda'] = torch.version.cuda\n"
	"    ok = torch.cuda.is_available()\n"
	"    r['available'] = bool(ok)\n"
	"    r['device_count'] = torch.cuda.device_count() if ok else 0\n"
	"    try:\n"
	"        r['arch_list'] = ' '.join(torch.cuda.get_arch_list())\n"
	"    except Exception:\n"
	"        r['arch_list'] = ''\n"
	"    try:\n"
	"        v = torch.backends.cudnn.version()\n"
	"        r['cudnn'] = str(v) if v else ''\n"
	"    except Exception as e:\n"
	"        r['cudnn'] = ''\n"
	"        r['cudnn_error'] = str(e)[:200]\n"
	"    try:\n"
	"        r['cudnn_enabled'] = bool(torch.backends.cudnn.enabled)\n"
	"    except Exception:\n"
	"        pass\n"
	"    devs = []\n"
	"    for i in range(min(r['device_count'], 16)):\n"
	"        dv = {}\n"
	"        try:\n"
	"            dv['name'] = torch.cuda.get_device_name(i)\n"
	"            dv['cc'] = '.'.join(map(str, torch.cuda.get_device_capability(i)))\n"
	"            x = torch.ones(64, device='cuda:' + str(i))\n"
	"            dv['test'] = 'ok' if float((x * 2).sum().item()) == 128.0 else 'wrong result'\n"
	"        except Exception as e:\n"
	"            dv['test'] = str(e)[:200]\n"
	"        devs.append(dv)\n"
	"    r['devices'] = devs\n"
	"    if devs:\n"
	"        bad = [d['test'] for d in devs if d.get('test') != 'ok']\n"
	"        r['tensor_test'] = bad[0] if bad else 'ok'\n"
	"except Exception as e:\n"
	"    r['error'] = '%s: %s' % (type(e).__name__, str(e)[:300])\n"
	"r['warnings'] = caught[:3]\n"
	"print(json.dumps(r))\n";

static void copy_string(json_t *obj, const char *key, char *out, size_t outsz)
{
	json_t *v = json_object_get(obj, key);

	if (json_is_string(v))
		str_copy(out, outsz, json_string_value(v));
}

static void parse_report(struct torch_deep *d, const char *out)
{
	const char *line = out, *nl;
	json_t *j, *w, *dev;
	size_t i;

	/* The report is the last line; anything torch printed before it is skipped. */
	while ((nl = strchr(line, '\n')) && nl[1])
		line = nl + 1;
	j = json_loads(line, JSON_DISABLE_EOF_CHECK, NULL);
	if (!j) {
		str_copy(d->error, sizeof(d->error), "the probe printed no report");
		return;
	}
	d->ok = true;
	copy_string(j, "error", d->error, sizeof(d->error));
	copy_string(j, "version", d->version, sizeof(d->version));
	copy_string(j, "cuda", d->cuda, sizeof(d->cuda));
	copy_string(j, "arch_list", d->arch_list, sizeof(d->arch_list));
	copy_string(j, "cudnn", d->cudnn, sizeof(d->cudnn));
	copy_string(j, "cudnn_error", d->cudnn_error, sizeof(d->cudnn_error));
	if (json_is_boolean(json_object_get(j, "cudnn_enabled")))
		d->cudnn_enabled = json_is_true(json_object_get(j, "cudnn_enabled"));
	copy_string(j, "tensor_test", d->tensor_test, sizeof(d->tensor_test));
	if (json_is_boolean(json_object_get(j, "available")))
		d->available = json_is_true(json_object_get(j, "available"));
	if (json_is_integer(json_object_get(j, "device_count")))
		d->device_count = (int)json_integer_value(json_object_get(j, "device_count"));
	copy_string(j, "file", d->file, sizeof(d->file));
	json_array_foreach(json_object_get(j, "devices"), i, dev) {
		if (d->ndevices >= MAX_DEEP_DEVICES)
			break;	/* the script stops at the same number: counted below */
		copy_string(dev, "name", d->devices[d->ndevices].name, sizeof(d->devices[0].name));
		copy_string(dev, "cc", d->devices[d->ndevices].cc, sizeof(d->devices[0].cc));
		copy_string(dev, "test", d->devices[d->ndevices].test, sizeof(d->devices[0].test));
		d->ndevices++;
	}
	w = json_array_get(json_object_get(j, "warnings"), 0);
	if (json_is_string(w))
		str_copy(d->warning, sizeof(d->warning), json_string_value(w));
	json_decref(j);
}

/* The variables that change what `import torch` loads or what it sees of the GPUs. */
static bool keep_variable(const char *entry)
{
	static const char *const names[] = {
		"PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ", "TMPDIR",
		"LD_LIBRARY_PATH", "LD_PRELOAD", "PYTHONPATH", "PYTHONHOME", "PYTHONNOUSERSITE", "PYTHONUSERBASE",
		"PYTHONSAFEPATH", "VIRTUAL_ENV", "CONDA_PREFIX", "CONDA_DEFAULT_ENV", "XDG_CACHE_HOME",
	};
	static const char *const prefixes[] = { "LC_", "CUDA_", "NVIDIA_", "TORCH_", "PYTORCH_", "HIP_", "ROCR_", "HSA_" };
	size_t len = strcspn(entry, "=");

	if (!entry[len])
		return false;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == len && strncmp(entry, names[i], len) == 0)
			return true;
	for (size_t i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (str_starts_with(entry, prefixes[i]))
			return true;
	return false;
}

/* The environment the probe runs with: envp filtered by keep_variable (pointers borrowed). */
static char **probe_environment(char *const *envp)
{
	size_t n = 0, k = 0;
	char **out;

	while (envp && envp[n])
		n++;
	if (!(out = calloc(n + 1, sizeof(*out))))
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (keep_variable(envp[i]))
			out[k++] = envp[i];
	return out;
}

static bool worth_running(const struct facts *f, const struct probe_ctx *ctx, const struct torch_install *t)
{
	if (ctx->deep)
		return true;
	/* By default only where it can tell something new: a CUDA build and a GPU CUDA can use. */
	return t->cuda[0] && f->runtime.cuda_lib.init_done && f->runtime.cuda_lib.init == 0;
}

/*
 * Runs the selected interpreter with `import torch`, blocking for up to three times ctx->timeout_s (30 s by
 * default). Only live, never with --fast or --static, and by default only when cuInit succeeded (--deep
 * forces it): needs probe_runtime done. Failures go into f->python.deep.error.
 */
void probe_torch_deep(struct facts *f, const struct probe_ctx *ctx)
{
	struct python_facts *p = &f->python;
	struct torch_deep *d = &p->deep;
	const struct python_env *py;
	struct subprocess_result res;
	struct error err;
	char exe[FACT_PATH], *argv[5], **env;
	double timeout = ctx->timeout_s > 0 ? ctx->timeout_s * 3 : 30;

	d->available = -1;
	d->cudnn_enabled = -1;
	if (!ctx->fs->live || ctx->fast || ctx->static_only || p->selected < 0)
		return;
	py = &p->envs[p->selected];
	if (py->torch < 0 || !worth_running(f, ctx, &p->torches[py->torch]))
		return;
	/* what runs is the host's name of the machine's interpreter (the same file: the probe runs only live) */
	if (rootfs_host_path(ctx->fs, py->exe, false, exe, sizeof(exe), NULL) < 0)
		return;
	argv[0] = exe;
	argv[1] = "-B";
	argv[2] = "-c";
	argv[3] = (char *)deep_script;
	argv[4] = NULL;
	if (!(env = probe_environment(ctx->envp))) {
		str_copy(d->error, sizeof(d->error), "out of memory");
		return;
	}
	d->ran = true;
	if (subprocess_run(argv, env, "/", timeout, DEEP_OUTPUT_MAX, &res, &err) < 0) {
		str_copy(d->error, sizeof(d->error), err.msg);
		free(env);
		return;
	}
	free(env);
	d->elapsed_ms = res.elapsed_ms;
	if (res.stuck)
		str_printf(d->error, sizeof(d->error), "import torch did not finish within %g s, and the interpreter "
			   "(pid %d) did not exit when killed: it is stuck in the kernel, usually in the GPU driver",
			   timeout, res.pid);
	else if (res.timed_out)
		str_printf(d->error, sizeof(d->error), "import torch did not finish within %g s", timeout);
	else if (res.exit_code != 0)
		str_printf(d->error, sizeof(d->error), "the interpreter %s %d: %.200s",
			   res.signal ? "died of signal" : "exited with", res.signal ? res.signal : res.exit_code, res.err);
	else {
		parse_report(d, res.out);
		if (d->device_count > MAX_DEEP_DEVICES)
			facts_dropped(f, "GPUs tested by import torch", MAX_DEEP_DEVICES, d->device_count - MAX_DEEP_DEVICES);
	}
	subprocess_result_release(&res);
}
