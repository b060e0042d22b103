/*
 * rules_platform.c - containers started without GPUs, and a Linux driver
 * installed inside WSL.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "rules/fixes.h"
#include "rules/rules.h"
#include "util/i18n.h"
#include "util/str.h"

static bool has_node(const struct facts *facts, const char *path)
{
	const struct devnode *n = facts_devnode(facts, path);

	return n && n->present;
}

static void check_container_no_gpu(const struct facts *facts, struct findings *out)
{
	const struct container_facts *c = &facts->container;
	const char *nvd = facts_env(facts, "NVIDIA_VISIBLE_DEVICES");
	struct finding *f;

	if (!c->in_container || c->wsl || has_node(facts, "/dev/nvidiactl"))
		return;
	if (facts->pci.count == 0 && !c->nvidia_image && !nvd)
		return;	/* nothing says this container was meant to have a GPU */
	f = findings_add(out, CAUSE_CONTAINER_NO_GPU, SEV_ERROR,
			 "this %s container was started without access to the GPU", c->runtime);
	finding_detail(f, "Inside a container the NVIDIA devices (/dev/nvidia*) and driver libraries exist only "
		       "when the container runtime injects them. None were injected here, so no CUDA program in "
		       "this container can see a GPU, whatever is installed in the image.");
	finding_evidence(f, "container", N_("container markers"), "%s (%s)", c->runtime, c->evidence);
	finding_evidence(f, "/dev/nvidiactl", "/dev", "missing");
	if (facts->pci.count > 0)
		finding_evidence(f, "NVIDIA GPUs on the PCI bus", "/sys/bus/pci/devices", "%d", facts->pci.count);
	if (nvd)
		finding_evidence(f, "NVIDIA_VISIBLE_DEVICES", N_("environment"), "%s", nvd);
	if (strcmp(c->runtime, "kubernetes") == 0) {
		finding_fix(f, NULL, "request the GPU in the pod spec: resources.limits: {nvidia.com/gpu: 1}");
		finding_fix(f, NULL, "make sure the NVIDIA device plugin (or GPU Operator) runs on the node");
	} else if (strcmp(c->runtime, "podman") == 0) {
		finding_fix(f, "podman run --device nvidia.com/gpu=all IMAGE",
			    "start the container with the GPU, through CDI (needs nvidia-container-toolkit on the host)");
		finding_fix(f, "sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml",
			    "on the host, generate the CDI specification once");
	} else {
		finding_fix(f, "docker run --gpus all IMAGE", "start the container with the GPUs");
		finding_fix(f, "sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker",
			    "on the host, if --gpus fails: install nvidia-container-toolkit and register it with Docker");
	}
	if (nvd && (strcmp(nvd, "void") == 0 || strcmp(nvd, "none") == 0 || !nvd[0]))
		finding_fix(f, NULL, "NVIDIA_VISIBLE_DEVICES=%s asks the runtime for no GPU: set it to 'all' or to GPU indices",
			    nvd);
}

/*
 * Remove what put a Linux driver into the WSL distribution, and nothing else: the package that owns the Linux
 * libcuda, and with it (the package manager lists them) the driver packages that depend on it. A pattern such
 * as '^nvidia-.*' would take the container toolkit and Debian's nvidia-cuda-toolkit along.
 */
static void fix_remove_linux_driver(struct finding *f, const struct facts *facts, const struct lib_candidate *lib)
{
	enum distro distro = distro_of(facts);
	bool deb = distro == DISTRO_UBUNTU || distro == DISTRO_DEBIAN;
	bool rpm = distro == DISTRO_FEDORA || distro == DISTRO_RHEL || distro == DISTRO_SUSE;
	char word[FACT_PATH + 8], cmd[FACT_PATH + 32];

	if (lib && (deb || rpm) && plan_shell_word(lib->resolved, word, sizeof(word)) == 0) {
		str_printf(cmd, sizeof(cmd), "%s %s", deb ? "dpkg -S" : "rpm -qf", word);
		finding_fix(f, cmd, "see which package installed the Linux libcuda");
	}
	if (deb)
		finding_fix(f, "sudo apt-get remove --purge PACKAGE",
			    "remove that package (and the DKMS module's, nvidia-dkms-NNN): apt lists the driver packages "
			    "that go with it; keep the CUDA toolkit if you need it");
	else if (rpm)
		finding_fix(f, distro == DISTRO_SUSE ? "sudo zypper remove PACKAGE" : "sudo dnf remove PACKAGE",
			    "remove that package (and the kernel module's): the package manager lists the driver "
			    "packages that go with it; keep the CUDA toolkit if you need it");
	else
		finding_fix(f, NULL, "remove the Linux NVIDIA driver packages from the WSL distribution (the one that "
			    "owns the Linux libcuda, and the kernel module's); keep the CUDA toolkit if you need it");
}

/* On WSL 2 the driver lives in Windows; /usr/lib/wsl/lib carries its libcuda. */
static void check_wsl_driver(const struct facts *facts, struct findings *out)
{
	const struct container_facts *c = &facts->container;
	const struct lib_choice *cuda = &facts->libs.cuda;
	const struct lib_candidate *linux_lib = NULL;
	struct finding *f;

	if (!c->wsl)
		return;
	for (int i = 0; i < cuda->count; i++)
		if (cuda->candidates[i].origin != LIB_FROM_WSL && !cuda->candidates[i].is_stub &&
		    strncmp(cuda->candidates[i].resolved, "/usr/lib/wsl/", 13) != 0)
			linux_lib = &cuda->candidates[i];
	if (!linux_lib && !facts->kmod.module_on_disk && facts->kmod.dkms_count == 0)
		return;
	f = findings_add(out, CAUSE_WSL_DRIVER, SEV_ERROR,
			 "a Linux NVIDIA driver is installed inside WSL");
	finding_detail(f, "Under WSL 2 the GPU driver is the Windows one; WSL exposes it through /dev/dxg and the "
		       "libraries in /usr/lib/wsl/lib. A Linux driver package installed inside the distribution puts "
		       "its own libcuda.so in front of WSL's, and CUDA then fails to initialise.");
	finding_evidence(f, "WSL", "/proc/sys/kernel/osrelease", "%s", c->wsl_evidence);
	if (linux_lib)
		finding_evidence(f, "Linux libcuda.so.1", linux_lib->path, "%s%s%s", linux_lib->resolved,
				 linux_lib->version[0] ? " version " : "", linux_lib->version);
	if (facts->kmod.dkms_count > 0)
		finding_evidence(f, "DKMS nvidia module", "/var/lib/dkms/nvidia", "%s", facts->kmod.dkms_versions[0]);
	fix_remove_linux_driver(f, facts, linux_lib);
	finding_fix(f, "sudo ldconfig", "refresh the loader cache so /usr/lib/wsl/lib is used again");
	finding_fix(f, "wsl --shutdown", "from Windows: restart WSL; keep the GPU driver up to date on the Windows side only");
}

/* How to register the toolkit with each engine this host has. */
static void fix_configure_engines(struct finding *f, const struct container_host_facts *h)
{
	if (h->docker)
		finding_fix(f, "sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker",
			    "register the NVIDIA runtime with Docker (writes runtimes.nvidia into /etc/docker/daemon.json)");
	/* Docker brings its own containerd; registering there too only matters to Kubernetes nodes without Docker */
	if (h->containerd && !h->docker)
		finding_fix(f, "sudo nvidia-ctk runtime configure --runtime=containerd && sudo systemctl restart containerd",
			    "register the NVIDIA runtime with containerd (/etc/containerd/config.toml)");
	if (strstr(h->engines, "podman"))
		finding_fix(f, "sudo nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml",
			    "for Podman, generate the CDI specification (then: podman run --device nvidia.com/gpu=all)");
}

static bool applies(const struct container_host_facts *h)
{
	return h->engine && h->status.state == FACT_OK && !fact_denied(&h->status);	/* engine: a zeroed model says OK */
}

/* A container engine on a GPU host without the NVIDIA Container Toolkit: no container gets the GPU. */
static void check_container_toolkit(const struct facts *facts, struct findings *out)
{
	const struct container_host_facts *h = &facts->container_host;
	bool wanted;
	struct finding *f;

	if (!applies(h) || h->nvidia_ctk[0] || h->nvidia_container_cli[0] || h->nvidia_container_runtime[0] ||
	    h->nvidia_container_runtime_hook[0] || h->libnvidia_container[0])
		return;
	/* daemon.json already names the NVIDIA runtime: someone set this host up for GPU containers */
	wanted = h->docker_runtime[0] || strcmp(h->docker_default_runtime, "nvidia") == 0;
	f = findings_add(out, CAUSE_CONTAINER_TOOLKIT_MISSING, wanted ? SEV_ERROR : SEV_WARNING,
			 "the NVIDIA Container Toolkit is not installed on this host");
	finding_detail(f, "This host runs containers (%s) and has an NVIDIA GPU, but none of the toolkit's parts "
		       "(nvidia-container-runtime-hook, nvidia-container-runtime, nvidia-ctk, nvidia-container-cli, "
		       "libnvidia-container.so.1) are installed. Without them no container can use the GPU: `docker run "
		       "--gpus all` fails with \"could not select device driver \"\" with capabilities: [[gpu]]\"%s.",
		       h->engines, wanted ? ", and the runtime daemon.json names does not exist" : "");
	finding_evidence(f, "container engines", N_("programs and configuration"), "%s", h->engines);
	finding_evidence(f, "nvidia-container-runtime-hook, nvidia-ctk", "/usr/bin, PATH", "not found");
	finding_evidence(f, "libnvidia-container.so.1", N_("loader search path"), "not found");
	if (h->docker_runtime[0])
		finding_evidence(f, "Docker runtime", "/etc/docker/daemon.json", "\"%s\" runs nvidia-container-runtime",
				 h->docker_runtime);
	if (h->docker_default_runtime[0])
		finding_evidence(f, "default-runtime", "/etc/docker/daemon.json", "%s", h->docker_default_runtime);
	finding_evidence(f, "NVIDIA GPUs on the PCI bus", "/sys/bus/pci/devices", "%d", facts->pci.count);
	fix_install_container_toolkit(f, facts);
	fix_configure_engines(f, h);
}

/* The toolkit is installed but Docker does not know the NVIDIA runtime: --gpus works, --runtime=nvidia does not. */
static void check_docker_runtime(const struct facts *facts, struct findings *out)
{
	const struct container_host_facts *h = &facts->container_host;
	struct finding *f;

	if (!applies(h) || !h->docker || h->docker_config < 0 || h->docker_runtime[0] || !h->nvidia_container_runtime[0])
		return;
	f = findings_add(out, CAUSE_CONTAINER_RUNTIME_MISSING, SEV_INFO,
			 "Docker has no \"nvidia\" runtime registered");
	finding_detail(f, "The NVIDIA Container Toolkit is installed, so `docker run --gpus all` works (Docker calls "
		       "nvidia-container-runtime-hook itself), but /etc/docker/daemon.json %s no runtime that runs "
		       "nvidia-container-runtime: `docker run --runtime=nvidia` and Compose files with `runtime: nvidia` "
		       "fail with \"unknown or invalid runtime name: nvidia\". NVIDIA's install guide registers it.",
		       h->docker_config == 0 ? "does not exist, so it names" : "names");
	finding_evidence(f, "nvidia-container-runtime", h->nvidia_container_runtime, "installed");
	finding_evidence(f, "runtimes", "/etc/docker/daemon.json", "%s", h->docker_config == 0 ? "no file" : "no NVIDIA runtime");
	finding_fix(f, "sudo nvidia-ctk runtime configure --runtime=docker && sudo systemctl restart docker",
		    "register it (adds runtimes.nvidia to /etc/docker/daemon.json, keeping the rest)");
}

/* A CDI spec generated for another driver than the one installed: its host paths are gone. */
static void check_cdi(const struct facts *facts, struct findings *out)
{
	const struct container_host_facts *h = &facts->container_host;
	const char *drv = facts_driver_version(facts);

	if (!applies(h))
		return;
	for (int i = 0; i < h->ncdi; i++) {
		const struct cdi_spec *s = &h->cdi[i];
		bool other_driver = drv && s->driver_version[0] && strcmp(drv, s->driver_version) != 0;
		struct finding *f;
		char cmd[FACT_PATH + 64];

		if (!other_driver && s->missing == 0)
			continue;
		f = findings_add(out, CAUSE_CONTAINER_CDI_STALE, SEV_WARNING, "the CDI specification %s %s", s->path,
				 other_driver ? "was generated for another driver" : "names files that do not exist");
		finding_detail(f, "Podman, containerd and Docker's CDI mode inject the GPU into containers exactly as this "
			       "file says. %s%d of the %d host files it names are missing, so starting a container with "
			       "--device %s=all fails (\"no such file or directory\" for a host path). A driver upgrade "
			       "leaves such a stale file behind; it must be generated again.",
			       other_driver ? "It was generated for another driver than the one installed, and " : "",
			       s->missing, s->checked, s->kind);
		finding_evidence(f, "CDI spec", s->path, "kind %s, %d host paths", s->kind, s->checked);
		if (s->driver_version[0])
			finding_evidence(f, "driver in the spec", s->path, "%s", s->driver_version);
		if (drv)
			finding_evidence(f, "installed driver", facts_driver_version_source(facts), "%s", drv);
		if (s->missing)
			finding_evidence(f, "missing host path", s->path, "%s%s", s->missing_example,
					 s->missing > 1 ? " (and others)" : "");
		str_printf(cmd, sizeof(cmd), "sudo nvidia-ctk cdi generate --output=%s", s->path);
		finding_fix(f, cmd, "generate the specification again for the installed driver");
		return;
	}
}

/* Files the probes were refused: what they would have said is unknown, not absent. */
static void check_unreadable(const struct facts *facts, struct findings *out)
{
	/* down the chain: the finding sits where the first gap is */
	static const struct {
		size_t offset;
		enum stage stage;
		const char *what;
	} sections[] = {
		{ offsetof(struct facts, pci.status), STAGE_GPU, "whether there is a GPU" },
		{ offsetof(struct facts, kmod.status), STAGE_KERNEL, "the kernel module and device nodes" },
		{ offsetof(struct facts, libs.cuda.status), STAGE_USER_LIBS, "which driver libraries load" },
		{ offsetof(struct facts, toolkits.status), STAGE_TOOLKIT, "the CUDA toolkits" },
		{ offsetof(struct facts, cudnn.status), STAGE_CUDNN, "cuDNN" },
		{ offsetof(struct facts, python.status), STAGE_PYTHON, "the Python interpreters and their torch" },
	};
	char withheld[256] = "";
	enum stage stage = STAGE_PLATFORM;
	struct finding *f;
	bool key = false;
	int shown = facts->unreadable_kept;

	if (facts->unreadable_count == 0)
		return;
	for (size_t i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
		const struct fact_status *st = (const void *)((const char *)facts + sections[i].offset);
		size_t n = strlen(withheld);

		if (!st->denied)
			continue;
		if (!key)
			stage = sections[i].stage;
		key = true;
		snprintf(withheld + n, sizeof(withheld) - n, "%s%s", n ? ", " : "", sections[i].what);
	}
	f = findings_add(out, CAUSE_SYSTEM_UNREADABLE, key ? SEV_ERROR : SEV_WARNING,
			 "cannot read the machine's files: permission denied");
	finding_stage(f, stage);	/* at the first gap in the chain */
	if (key)
		finding_detail(f, "gpudoctor was refused files it needs, so it cannot tell %s. It does not guess: "
			       "nothing is reported missing or ready that it could not read.", withheld);
	else
		finding_detail(f, "gpudoctor was refused some files. What it reports did not depend on them, but the "
			       "facts shown from them are incomplete.");
	for (int i = 0; i < shown; i++)
		finding_evidence(f, facts->unreadable[i], "", "permission denied");
	finding_evidence(f, "refusals", "", "%d in all", facts->unreadable_count);
	if (facts->live)
		finding_fix(f, "sudo gpudoctor", "run it as root, which may read every file");
	else
		finding_fix(f, NULL, "run it as a user who may read the whole image (root), or make the files readable");
}

static const struct rule platform_rules[] = {
	{ CAUSE_CONTAINER_NO_GPU, check_container_no_gpu },
	{ CAUSE_WSL_DRIVER, check_wsl_driver },
	{ CAUSE_CONTAINER_TOOLKIT_MISSING, check_container_toolkit },
	{ CAUSE_CONTAINER_RUNTIME_MISSING, check_docker_runtime },
	{ CAUSE_CONTAINER_CDI_STALE, check_cdi },
	{ CAUSE_SYSTEM_UNREADABLE, check_unreadable },
};

const struct rule_family rules_platform = { "platform", platform_rules,
					    sizeof(platform_rules) / sizeof(platform_rules[0]) };
