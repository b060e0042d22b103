/*
 * Unit tests for src/paste: the facts a pasted report shows. Every input is text quoted in a public report:
 * collect_env from pytorch/pytorch#112553 (torch 2.1.0+cu121 on driver 470.182.03) and #122924 (a CPU build of
 * torch 2.2.2 beside an RTX 4080), the [pip3] lines of #51858, `nvcc --version` from #31876, `nvidia-smi -L`
 * from #99137, nvidia-smi's header and a bare print(torch.__version__) from #85332, nvidia-smi's header from
 * Chia-Network/bladebit#431, an Xid line from NVIDIA/NVSentinel#155; nvidia-smi tables from the README of
 * kimown/docker_debian10_cuda10, NVIDIA/nvidia-docker#1173 and microsoft/WSL#9134 (the Windows TCC/WDDM layout);
 * run lines from floydhub/dockerfiles#3, NVIDIA/nvidia-docker#1173 and pytorch/pytorch#18690; a container prompt
 * from coder/code-server#922; /proc/version from microsoft/WSL#6772; /proc/driver/nvidia/version from
 * weaviate/Verba#72; lspci -nn from RunGp/Nvidiux#4; an issue template's version fields from
 * NVIDIA/numba-cuda#192. The collect_env format is torch/utils/collect_env.py's
 * env_info_fmt.
 */
#include "testutil.h"

#include <stddef.h>

#include "paste/paste.h"
#include "rules/rules.h"
#include "util/str.h"

static struct paste *read_text(const char *text)
{
	struct paste *p = paste_new();

	assert_non_null(p);
	paste_feed(p, text, strlen(text), 0, 0);
	paste_finish(p);
	return p;
}

/* Text and what the paste should name from it (a *_named field of struct paste, "" for nothing). */
struct named_case {
	const char *text;
	const char *named;
};

static void check_named(const struct named_case *cases, size_t n, size_t field)
{
	for (size_t i = 0; i < n; i++) {
		struct paste *p = read_text(cases[i].text);

		assert_string_equal((const char *)p + field, cases[i].named);
		paste_free(p);
	}
}

static void test_collect_env_cu121_driver_470(void **state)
{
	/* pytorch/pytorch#112553 */
	static const char text[] =
		"Collecting environment information...\n"
		"PyTorch version: 2.1.0+cu121\n"
		"Is debug build: False\n"
		"CUDA used to build PyTorch: 12.1\n"
		"ROCM used to build PyTorch: N/A\n"
		"\n"
		"OS: Ubuntu 20.04.6 LTS (x86_64)\n"
		"GCC version: (Ubuntu 9.4.0-1ubuntu1~20.04.2) 9.4.0\n"
		"Clang version: Could not collect\n"
		"CMake version: version 3.27.7\n"
		"Libc version: glibc-2.31\n"
		"\n"
		"Python version: 3.11.6 (main, Oct 31 2023, 20:55:52) [GCC 9.4.0] (64-bit runtime)\n"
		"Python platform: Linux-5.15.107+-x86_64-with-glibc2.31\n"
		"Is CUDA available: False\n"
		"CUDA runtime version: No CUDA\n"
		"CUDA_MODULE_LOADING set to: N/A\n"
		"GPU models and configuration: GPU 0: Tesla T4\n"
		"Nvidia driver version: 470.182.03\n";
	struct paste *p = read_text(text);
	const struct facts *f = p->facts;

	(void)state;
	assert_true(paste_saw(p, PASTE_TORCH));
	assert_true(paste_saw(p, PASTE_DRIVER));
	assert_true(paste_saw(p, PASTE_GPU));
	assert_true(paste_saw(p, PASTE_OS));
	assert_false(paste_saw(p, PASTE_TOOLKIT));	/* "No CUDA" is no nvcc */
	assert_string_equal(f->python.torches[0].version, "2.1.0+cu121");
	assert_string_equal(f->python.torches[0].cuda, "12.1");
	assert_string_equal(f->python.envs[0].version, "3.11");
	assert_int_equal(f->python.selected, 0);
	assert_string_equal(facts_driver_version(f), "470.182.03");
	assert_int_equal(p->cuda_available, 0);
	assert_true(f->from_paste);
	assert_int_equal(f->pci.count, 1);
	assert_string_equal(f->pci.gpus[0].name, "Tesla T4");
	assert_string_equal(f->pci.gpus[0].cc, "7.5");
	assert_string_equal(f->system.os_pretty, "Ubuntu 20.04.6 LTS");
	assert_string_equal(f->system.arch, "x86_64");
	assert_string_equal(f->system.glibc_version, "2.31");
	assert_string_equal(f->system.kernel_release, "5.15.107+");
	assert_int_equal(f->python.status.state, FACT_OK);
	assert_int_equal(f->kmod.status.state, FACT_UNKNOWN);
	assert_string_equal(f->kmod.status.reason, "not in the paste");
	assert_int_equal(f->toolkits.status.state, FACT_UNKNOWN);
	assert_int_equal(paste_saw(p, PASTE_TORCH) && paste_saw(p, PASTE_DRIVER),
			 (paste_cause_needs(CAUSE_TORCH_DRIVER_TOO_OLD) & ~p->seen) == 0);
	paste_free(p);
}

static void test_collect_env_cpu_build(void **state)
{
	/* pytorch/pytorch#122924: torch.version.cuda None prints as "Could not collect" */
	static const char text[] =
		"PyTorch version: 2.2.2\n"
		"Is debug build: False\n"
		"CUDA used to build PyTorch: Could not collect\n"
		"ROCM used to build PyTorch: N/A\n"
		"CUDA runtime version: 12.4.99\n"
		"GPU models and configuration: GPU 0: NVIDIA GeForce RTX 4080 Laptop GPU\n"
		"Nvidia driver version: 551.86\n"
		"cuDNN version: Could not collect\n"
		"[pip3] numpy==1.26.4\n"
		"[pip3] torch==2.2.2\n"
		"[pip3] torchaudio==2.2.2\n"
		"[pip3] torchvision==0.17.2\n";
	struct paste *p = read_text(text);
	const struct torch_install *t = &p->facts->python.torches[0];

	(void)state;
	assert_true(paste_saw(p, PASTE_TORCH));
	assert_string_equal(t->version, "2.2.2");
	assert_string_equal(t->cuda, "");
	assert_string_equal(t->hip, "");
	assert_string_equal(p->facts->toolkits.items[0].version, "12.4.99");
	assert_true(paste_saw(p, PASTE_TOOLKIT));
	assert_false(paste_saw(p, PASTE_CUDNN));
	assert_string_equal(p->facts->pci.gpus[0].name, "NVIDIA GeForce RTX 4080 Laptop GPU");
	assert_int_equal(t->npackages, 2);
	assert_string_equal(t->packages[0], "torchaudio 2.2.2");
	assert_int_equal(p->cuda_available, -1);	/* not in the paste */
	paste_free(p);
}

static void test_pip_lines_tag_the_build(void **state)
{
	/* pytorch/pytorch#51858: no collect_env torch line, only the package list */
	static const char text[] = "[pip3] numpy==1.23.5\n[pip3] torch==2.0.1+cu117\n[pip3] torchaudio==2.0.2+cu117\n"
				   "[pip3] torchvision==0.15.2\n";
	struct paste *p = read_text(text);

	(void)state;
	assert_true(paste_saw(p, PASTE_TORCH));
	assert_string_equal(p->facts->python.torches[0].cuda, "11.7");
	assert_string_equal(p->facts->python.torches[0].installer, "pip");
	assert_false(paste_saw(p, PASTE_DRIVER));
	paste_free(p);
}

static void test_nvcc_smi_list_and_print(void **state)
{
	/* nvcc: pytorch/pytorch#31876; -L: #99137; the header and the print: #85332 */
	static const char text[] =
		"Cuda compilation tools, release 10.0, V10.0.130\n"
		"GPU 0: Quadro K620 (UUID: GPU-56622fc6-a9b3-5594-4c6d-b0b231be656a)\n"
		"nvidia-smi:NVIDIA-SMI 450.51.05    Driver Version: 450.51.05    CUDA Version: 11.0 \n"
		"1.8.1+cu102\n";
	struct paste *p = read_text(text);

	(void)state;
	assert_string_equal(p->facts->toolkits.items[0].version, "10.0.130");
	assert_string_equal(p->facts->pci.gpus[0].name, "Quadro K620");
	assert_string_equal(facts_driver_version(p->facts), "450.51.05");
	assert_int_equal(p->facts->runtime.nvml_cuda_version, 11000);
	assert_string_equal(p->facts->python.torches[0].cuda, "10.2");
	assert_int_equal(p->first[PASTE_DRIVER].number, 3);
	paste_free(p);
}

static void test_smi_table_header(void **state)
{
	/* Chia-Network/bladebit#431 */
	static const char text[] =
		" NVIDIA-SMI 515.48.07    Driver Version: 515.48.07    CUDA Version: 11.7     |\n"
		"|-------------------------------+----------------------+----------------------+\n"
		"| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |\n"
		"| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |\n";
	struct paste *p = read_text(text);

	(void)state;
	assert_string_equal(facts_driver_version(p->facts), "515.48.07");
	assert_int_equal(p->facts->runtime.nvml_cuda_version, 11070);
	assert_false(paste_saw(p, PASTE_GPU));	/* the column headers are no GPU */
	paste_free(p);
}

static void test_dmesg_xid(void **state)
{
	/* NVIDIA/NVSentinel#155 */
	static const char text[] = "[ 1843.300000] NVRM: Xid (PCI:0000:44:00): 79, GPU has fallen off the bus.\n";
	struct paste *p = read_text(text);

	(void)state;
	assert_true(paste_saw(p, PASTE_KERNLOG));
	assert_int_equal(p->facts->kernlog.nxids, 1);
	assert_int_equal(p->facts->kernlog.xids[0].xid, 79);
	assert_true(p->facts->kernlog.xids[0].seconds > 1843.29 && p->facts->kernlog.xids[0].seconds < 1843.31);
	assert_int_equal(p->facts->kernlog.status.state, FACT_OK);
	paste_free(p);
}

static void test_prose_is_no_report(void **state)
{
	static const char text[] = "I installed torch 2.1 and it does not work\nGPU is an RTX 3090, driver is 470\n";
	struct paste *p = read_text(text);

	(void)state;
	assert_false(paste_saw_any(p));
	assert_int_equal(p->facts->python.status.state, FACT_UNKNOWN);
	paste_free(p);
}

static void test_smi_tables(void **state)
{
	/* kimown/docker_debian10_cuda10 README.md: two T4s, the bus ids nvidia-smi prints with 8 domain digits */
	static const char t4[] =
		"| NVIDIA-SMI 450.51.05    Driver Version: 450.51.05    CUDA Version: 11.0     |\n"
		"|-------------------------------+----------------------+----------------------+\n"
		"| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |\n"
		"| Fan  Temp  Perf  Pwr:Usage/Cap|         Memory-Usage | GPU-Util  Compute M. |\n"
		"|                               |                      |               MIG M. |\n"
		"|===============================+======================+======================|\n"
		"|   0  Tesla T4            On   | 00000000:18:00.0 Off |                    0 |\n"
		"| N/A   38C    P8    10W /  70W |      0MiB / 15109MiB |      0%      Default |\n"
		"|                               |                      |                  N/A |\n"
		"+-------------------------------+----------------------+----------------------+\n"
		"|   1  Tesla T4            On   | 00000000:3B:00.0 Off |                    0 |\n"
		"| N/A   39C    P8    10W /  70W |      0MiB / 15109MiB |      0%      Default |\n";
	/* microsoft/WSL#9134: Windows' nvidia-smi cuts long names and prints the driver model, not persistence */
	static const char wddm[] =
		"  | GPU  Name            TCC/WDDM | Bus-Id        Disp.A | Volatile Uncorr. ECC |\n"
		"  |   0  NVIDIA GeForce ... WDDM  | 00000000:0A:00.0  On |                  N/A |\n";
	/* NVIDIA/nvidia-docker#1173: the run line with --gpus, then the table inside */
	static const char docker[] =
		"gojoin@deepro:~/work$ sudo docker run --gpus all 4af27b303053 nvidia-smi\n"
		"| NVIDIA-SMI 430.50       Driver Version: 430.50       CUDA Version: 10.1     |\n"
		"| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |\n"
		"|   0  GeForce RTX 207...  Off  | 00000000:01:00.0 Off |                  N/A |\n";
	struct paste *p = read_text(t4);

	(void)state;
	assert_int_equal(p->facts->pci.count, 2);
	assert_string_equal(p->facts->pci.gpus[0].name, "Tesla T4");
	assert_string_equal(p->facts->pci.gpus[0].address, "0000:18:00.0");
	assert_string_equal(p->facts->pci.gpus[1].address, "0000:3B:00.0");
	assert_string_equal(p->facts->pci.gpus[1].cc, "7.5");
	assert_string_equal(facts_driver_version(p->facts), "450.51.05");
	paste_free(p);
	/* quoted with indentation, as pasted in a code block */
	p = read_text(wddm);
	assert_string_equal(p->facts->pci.gpus[0].name, "NVIDIA GeForce ...");
	assert_string_equal(p->facts->pci.gpus[0].cc, "");	/* a cut name is no model */
	paste_free(p);
	p = read_text(docker);
	assert_int_equal(p->run_gpus, 1);
	assert_string_equal(p->facts->pci.gpus[0].name, "GeForce RTX 207...");
	assert_string_equal(facts_driver_version(p->facts), "430.50");
	paste_free(p);
}

/*
 * The row under each GPU row and the Processes table: RLinf/RLinf#255 (two RTX 4090s, driver 550.163.01),
 * the process row of pytorch/torchrec's torchrec/inference/docs/inference.rst (GI and CI columns), and the
 * 4xx layout's "Not Supported" and "No running processes found" rows as nvidia-smi prints them.
 */
static void test_smi_memory_and_processes(void **state)
{
	static const char rlinf[] =
		"| NVIDIA-SMI 550.163.01             Driver Version: 550.163.01     CUDA Version: 12.4     |\n"
		"|-----------------------------------------+------------------------+----------------------+\n"
		"| GPU  Name                 Persistence-M | Bus-Id          Disp.A | Volatile Uncorr. ECC |\n"
		"| Fan  Temp   Perf          Pwr:Usage/Cap |           Memory-Usage | GPU-Util  Compute M. |\n"
		"|                                         |                        |               MIG M. |\n"
		"|=========================================+========================+======================|\n"
		"|   0  NVIDIA GeForce RTX 4090        Off |   00000000:4E:00.0 Off |                  Off |\n"
		"| 30%   29C    P8             22W /  450W |     507MiB /  24564MiB |      0%      Default |\n"
		"|                                         |                        |                  N/A |\n"
		"+-----------------------------------------+------------------------+----------------------+\n"
		"|   1  NVIDIA GeForce RTX 4090        Off |   00000000:4F:00.0 Off |                  Off |\n"
		"| 30%   29C    P8             21W /  450W |     459MiB /  24564MiB |      0%      Default |\n"
		"+-----------------------------------------------------------------------------+\n"
		"| Processes:                                                                  |\n"
		"|  GPU   GI   CI        PID   Type   Process name                  GPU Memory |\n"
		"|        ID   ID                                                   Usage      |\n"
		"|=============================================================================|\n"
		"|    0   N/A  N/A     86668      C   ./example                        1357MiB |\n"
		"+-----------------------------------------------------------------------------+\n";
	static const char old[] =
		"| GPU  Name        Persistence-M| Bus-Id        Disp.A | Volatile Uncorr. ECC |\n"
		"|   0  GeForce GT 710      Off  | 00000000:01:00.0 N/A |                  N/A |\n"
		"| 40%   31C    P0    N/A /  N/A |      0MiB /  2002MiB |     N/A      Default |\n"
		"| Processes:                                                       GPU Memory |\n"
		"|  GPU       PID   Type   Process name                             Usage      |\n"
		"|=============================================================================|\n"
		"|    0                    Not Supported                                       |\n"
		"|  No running processes found                                                 |\n";
	struct paste *p = read_text(rlinf);
	const struct runtime_facts *rt = &p->facts->runtime;

	(void)state;
	assert_int_equal(rt->nvml_ndev, 2);
	assert_int_equal(rt->nvml[0].mem_used_mib, 507);
	assert_int_equal(rt->nvml[0].mem_total_mib, 24564);
	assert_int_equal(rt->nvml[0].temperature_c, 29);
	assert_int_equal(rt->nvml[0].pstate, 8);
	assert_int_equal(rt->nvml[0].utilization, 0);
	assert_int_equal(rt->nvml[1].mem_used_mib, 459);
	assert_int_equal(rt->nvml[0].ecc_uncorrected, -1);	/* not in the table: unknown, never 0 */
	assert_int_equal(rt->nvml[0].nprocs, 1);
	assert_int_equal(rt->nvml[0].procs[0].pid, 86668);
	assert_int_equal(rt->nvml[0].procs[0].used_mib, 1357);
	assert_int_equal(rt->nvml[0].procs[0].uid, -1);
	assert_string_equal(rt->nvml[0].procs[0].command, "./example");
	assert_int_equal(rt->nvml[1].nprocs, 0);
	paste_free(p);
	p = read_text(old);
	rt = &p->facts->runtime;
	assert_int_equal(rt->nvml_ndev, 1);
	assert_int_equal(rt->nvml[0].mem_total_mib, 2002);
	assert_int_equal(rt->nvml[0].utilization, -1);	/* "N/A" */
	assert_int_equal(rt->nvml[0].nprocs, 0);
	paste_free(p);
}

/*
 * WSL named in prose: facebookresearch/nougat#105 ("On WSL Ubuntu 22.04.2 LTS"), microsoft/WSL#6014
 * ("inside WSL2"), facebookresearch/seamless_communication#167 ("Ubuntu Subsystem on Windows"); a path
 * such as /usr/lib/wsl/lib and WSLENV are no claim.
 */
static void test_wsl_named_in_prose(void **state)
{
	static const struct {
		const char *text;
		bool wsl;
		int version;
	} cases[] = {
		{ "On WSL Ubuntu 22.04.2 LTS, I had to create a link to /usr/lib/wsl/lib/libcuda.so.1\n", true, 0 },
		{ "I am running this inside WSL2 on the Insider build\n", true, 2 },
		{ "followed the instructions as it shows to run on a Ubuntu Subsystem on Windows.\n", true, 0 },
		{ "ls /usr/lib/wsl/lib/ shows libcuda.so.1\n", false, 0 },
		{ "WSLENV is empty\n", false, 0 },
		/* oobabooga/textgen#458: prose writes it in lower case; paths and names do not count */
		{ "I'm using wsl 1 on windows 10. \n", true, 1 },
		{ "I'm trying to install the webui on wsl but no luck.\n", true, 0 },
		{ "export LD_LIBRARY_PATH=/usr/lib/wsl/lib:$LD_LIBRARY_PATH\n", false, 0 },
		{ "wsl_version = 2 and libwsl.so\n", false, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct paste *p = read_text(cases[i].text);

		assert_int_equal(p->facts->container.wsl, cases[i].wsl);
		assert_int_equal(p->facts->container.wsl_version, cases[i].version);
		assert_int_equal(paste_saw(p, PASTE_CONTAINER), cases[i].wsl);
		paste_free(p);
	}
}

/*
 * Prose naming docker or a container (anibali/docker-pytorch#27, iot-salzburg/gpu-jupyter#22): noted as where
 * the error came from, never as a fact (the container section stays unseen); paths and tool names do not count.
 */
static void test_container_named_in_prose(void **state)
{
	static const struct named_case cases[] = {
		{ "I've run command  `docker pull anibali/pytorch:1.4.0-cuda10.1`\n", "the text names docker (line 1)" },
		{ "it seems like the `--gpus` option needs to be passed to docker-compose?\n",
		  "the text names docker-compose (line 1)" },
		{ "Same error inside the container.\n", "the text names container (line 1)" },
		{ "ls /var/lib/docker/volumes\n", "" },
		{ "nvidia-container-cli: initialization error\n", "" },
		{ "nvidia-docker | 2017/12/21 05:04:46 Error\n", "" },
		{ "containerd is running\n", "" },
	};

	(void)state;
	check_named(cases, sizeof(cases) / sizeof(cases[0]), offsetof(struct paste, container_named));
}

/*
 * A hosted notebook in the text (lllyasviel/Fooocus#1204's Colab cells, googlecolab/colabtools#5136's
 * traceback under /content, a Kaggle path): noted for the differential; names and paths that only contain
 * the words do not count.
 */
static void test_notebook_named(void **state)
{
	static const struct named_case cases[] = {
		{ "https://colab.research.google.com/drive\n", "the text shows Google Colab (line 1)" },
		{ "%cd /content/Fooocus\n", "the text shows Google Colab (line 1)" },
		{ "  File \"/content/Fooocus/launch.py\", line 152, in <module>\n", "the text shows Google Colab (line 1)" },
		{ "from google.colab import drive\n", "the text shows Google Colab (line 1)" },
		{ "Yes in colab, can it run without gpu?\n", "the text shows Google Colab (line 1)" },
		{ "  File \"/kaggle/working/train.py\", line 3\n", "the text shows Kaggle (line 1)" },
		{ "cp /var/www/content/a.txt .\n", "" },
		{ "import mycolab_utils\n", "" },
		{ "see the docs/content section\n", "" },
	};

	(void)state;
	check_named(cases, sizeof(cases) / sizeof(cases[0]), offsetof(struct paste, notebook_named));
}

/*
 * A command run with sudo gets root's PATH and home: the lines are from pytorch/vision#7510 (torch in a
 * virtualenv, `sudo python3 setup.py install`), Xharlie/BtcDet#6 (in prose, in backticks) and
 * grimoire/torch2trt_dynamic#5 (after a conda prompt); sudo running apt or pip is no Python run.
 */
static void test_sudo_python_named(void **state)
{
	static const struct named_case cases[] = {
		{ "cd torchvision\nsudo python3 setup.py install \n", "line 2 runs Python with sudo" },
		{ "When I try to run `sudo python3 setup.py develop` it returns no module named torch error\n",
		  "line 1 runs Python with sudo" },
		{ "(zk_mmdet2.4) yyf@zyzn:~/software/torch2trt$ sudo python setup.py install\n",
		  "line 1 runs Python with sudo" },
		{ "sudo -E python3.8 train.py\n", "line 1 runs Python with sudo" },
		{ "sudo apt install -y libjpeg-dev zlib1g-dev\n", "" },
		{ "ubuntu@smpl:~$ sudo pip install http://download.pytorch.org/whl/cpu/torch-0.3.1-cp27-cp27mu-linux_x86_64.whl\n",
		  "" },
		{ "pseudo python is not python\n", "" },
		{ "sudo pythonic-tool --help\n", "" },
	};

	(void)state;
	check_named(cases, sizeof(cases) / sizeof(cases[0]), offsetof(struct paste, sudo_python_named));
}

/*
 * LD_LIBRARY_PATH as the text prints it: the echo and its value from pytorch/pytorch#80637 (a cuDNN 8.0.3
 * directory ahead of the wheel's own cuDNN); the export line of the CUDA installation guide's
 * post-installation actions sets it, and shows nothing about what a program ran with.
 */
static void test_cudnn_on_ld_library_path(void **state)
{
	static const struct named_case cases[] = {
		{ "(py38) [0] rzou@devfair0317:~/binaries_test  $ echo $LD_LIBRARY_PATH\n"
		  "/public/apps/cudnn/v8.0.3.33-cuda.11.0/cuda/lib64:/public/apps/cuda/11.0/lib64:/usr/local/cuda/lib64:"
		  "/usr/local/cuda/lib64::/public/slurm/20.11.8/lib:/public/slurm/20.11.8/lib\n",
		  "line 2 shows LD_LIBRARY_PATH with /public/apps/cudnn/v8.0.3.33-cuda.11.0/cuda/lib64" },
		{ "$ echo $LD_LIBRARY_PATH\n/usr/local/cuda/lib64\n", "" },
		{ "export LD_LIBRARY_PATH=/usr/local/cudnn/lib64${LD_LIBRARY_PATH:+:${LD_LIBRARY_PATH}}\n", "" },
		{ "LD_LIBRARY_PATH=/opt/cuda/lib64:/opt/cudnn-8.9/lib\n",
		  "line 1 shows LD_LIBRARY_PATH with /opt/cudnn-8.9/lib" },
		{ "$ echo $LD_LIBRARY_PATH\n\n/opt/cudnn/lib64\n", "" },
	};

	(void)state;
	check_named(cases, sizeof(cases) / sizeof(cases[0]), offsetof(struct paste, cudnn_ld_path_named));
}

/*
 * CUDA_VISIBLE_DEVICES set to a value that can hide every GPU: numba/numba#5793 (-1), endernewton/
 * tf-faster-rcnn#38 ($0, in backquotes), weizhepei/CasRel#28 ("1" on a one-GPU machine), or said so in prose;
 * GPU 0 among the indices, a GPU UUID (pytorch/pytorch#99137's), a comparison or a value prose does not give
 * as a number hide nothing.
 */
static void test_visible_devices_set(void **state)
{
	static const struct named_case cases[] = {
		{ "Call to cuInit results in CUDA_ERROR_NO_DEVICE:\nos.environ[\"CUDA_VISIBLE_DEVICES\"]=\"-1\"\n",
		  "line 2 sets CUDA_VISIBLE_DEVICES=-1" },
		{ "`CUDA_VISIBLE_DEVICES=$0 ./tools/demo.py `\n", "line 1 sets CUDA_VISIBLE_DEVICES=$0" },
		{ "os.environ[\"CUDA_VISIBLE_DEVICES\"] = \"1\" \n", "line 1 sets CUDA_VISIBLE_DEVICES=1" },
		{ "export CUDA_VISIBLE_DEVICES=\n", "line 1 sets CUDA_VISIBLE_DEVICES=" },
		{ "os.environ[\"CUDA_VISIBLE_DEVICES\"] = \"0\"\n", "" },
		{ "export CUDA_VISIBLE_DEVICES=2,0\n", "" },
		{ "CUDA_VISIBLE_DEVICES=GPU-56622fc6-a9b3-5594-4c6d-b0b231be656a python train.py\n", "" },
		{ "if os.environ['CUDA_VISIBLE_DEVICES'] == '1':\n", "" },
		{ "print(os.environ['CUDA_VISIBLE_DEVICES'])\n", "" },
		/* prose: chainer/chainer#2245 spelled the variable without its S */
		{ "Even if CUDA is available, cudaGetDevice() can return\ncudaErrorNoDevice when CUDA_VISIBLE_DEVICE is set to -1.\n",
		  "line 2 sets CUDA_VISIBLE_DEVICES=-1" },
		{ "I set `CUDA_VISIBLE_DEVICES` to `1` on my laptop\n", "line 1 sets CUDA_VISIBLE_DEVICES=1" },
		{ "CUDA_VISIBLE_DEVICES is set to the second GPU\n", "" },
		{ "CUDA_VISIBLE_DEVICES was set to 0\n", "" },
	};

	(void)state;
	check_named(cases, sizeof(cases) / sizeof(cases[0]), offsetof(struct paste, visible_devices_named));
}

/*
 * A versioned toolkit said to be installed (pytorch/extension-cpp#26's "I am sure cuda9.0 in my computer is
 * installed correctly"); a negation, the driver, a version-less "cuda", one too far away or an install that
 * fixed the error name nothing.
 */
static void test_toolkit_installed_said(void **state)
{
	static const struct named_case cases[] = {
		{ "I work on ubuntu16.04, cuda9.0 and Pytorch1.0.\nHowever, I am sure cuda9.0 in my computer is installed "
		  "correctly.\n", "9.0" },
		{ "I have installed CUDA 10.1 and cuDNN 7.6\n", "10.1" },
		{ "CUDA Toolkit 11.8 is installed under /usr/local\n", "11.8" },
		{ "CUDA 11.8 is not installed on this machine\n", "" },
		{ "I haven't installed CUDA 12.1 yet\n", "" },
		{ "I installed the cuda driver 535.104\n", "" },
		{ "I installed cuda from the website\n", "" },
		{ "installing CUDA 11.3 fixed it\n", "" },
		{ "installed pytorch, torchvision and a lot of other packages, then the CUDA 11.8 wheels\n", "" },
	};

	(void)state;
	check_named(cases, sizeof(cases) / sizeof(cases[0]), offsetof(struct paste, toolkit_installed));
}

/* A graphics client named as a word of its own (dxvk#1243's prose); names inside other words do not count. */
static void test_graphics_client_named(void **state)
{
	static const struct named_case cases[] = {
		{ "Issue from the title happens in different games.\n", "line 1 names games" },
		{ "intro\nWine version: from 3.16-9 (Proton) to 4.19-staging\n", "line 2 names Proton" },
		{ "a Vulkan rendering process\n", "line 1 names Vulkan" },
		{ "import torch; from endgame import loss\n", "" },
		{ "/usr/lib/wine64-tools/readme\n", "" },
	};

	(void)state;
	check_named(cases, sizeof(cases) / sizeof(cases[0]), offsetof(struct paste, graphics_client_named));
}

/*
 * A GPU the prose names, from the GPU table: pytorch/pytorch#44253's Chinese sentence, a model glued to its line,
 * a mobile Pascal; a product line without a model, a word that only contains one, or a card the table lacks
 * name nothing.
 */
static void test_gpu_named(void **state)
{
	static const struct named_case cases[] = {
		{ "\xE6\x96\xB0\xE7\x89\x88\xE6\x9C\xAC\xE8\x83\xBD\xE4\xB8\x8D\xE8\x83\xBD\xE6\x94\xAF\xE6\x8C\x81\xE4\xB8\x8B "
		  "tesla k40m\xE7\x9A\x84\xE6\x98\xBE\xE5\x8D\xA1\n", "Tesla K40m" },
		{ "intro\nI train on a GTX1080 at home\n", "GeForce GTX 1080" },
		{ "my laptop has an MX250\n", "GeForce MX250" },
		{ "the RTX line is fast\n", "" },
		{ "see FASTGTX 1080 below\n", "" },
		{ "I have GeForce GT 9999M\n", "" },
	};

	(void)state;
	check_named(cases, sizeof(cases) / sizeof(cases[0]), offsetof(struct paste, gpu_named));
}

/*
 * nouveau blacklisted: the kernel command line in dmesg (negativo17/nvidia-driver#73), GRUB's, a modprobe.d
 * file. A list that does not name nouveau, nouveau's own probe line and a commented line name nothing.
 */
static void test_nouveau_blacklist_named(void **state)
{
	static const struct named_case cases[] = {
		{ "[    0.000000] Command line: BOOT_IMAGE=/vmlinuz-4.20.6-200.fc29.x86_64 root=UUID=8c7955f0-077d-403e-9ea7-"
		  "c14b48f660d7 ro rootflags=subvol=root rd.driver.blacklist=nouveau\n", "line 1 blacklists nouveau" },
		{ "intro\nGRUB_CMDLINE_LINUX=\"quiet splash modprobe.blacklist=nvidiafb,nouveau\"\n", "line 2 blacklists nouveau" },
		{ "blacklist nouveau\noptions nouveau modeset=0\n", "line 1 blacklists nouveau" },
		{ "linux /vmlinuz root=/dev/sda1 nouveau.modeset=0\n", "line 1 blacklists nouveau" },
		{ "[    5.436312] nouveau 0000:01:00.0: NVIDIA GM204 (124020a1)\n", "" },
		{ "Command line: ro modprobe.blacklist=nvidiafb nouveau.noaccel=1\n", "" },
		{ "#blacklist nouveau\n", "" },
	};

	(void)state;
	check_named(cases, sizeof(cases) / sizeof(cases[0]), offsetof(struct paste, nouveau_blacklist_named));
}

/*
 * A package list and the import disagreeing on torch's version: pytorch/pytorch#43574 says what pip list showed
 * in prose and prints the import's in the REPL; collect_env's [pip3] line against its PyTorch version. The same
 * release with or without a local tag, torchvision's version, and a list alone are no such sign.
 */
static void test_torch_versions_differ(void **state)
{
	static const struct named_case cases[] = {
		{ "the torch version is displayed as 1.7.0xxxx by pip list.\n\n```\n$ python\n>>> import torch\n"
		  ">>> torch.__version__\n'1.4.0'\n```\n",
		  "line 1 lists torch 1.7.0, line 7 imports torch 1.4.0" },
		{ "PyTorch version: 2.0.1+cu118\nIs debug build: False\n[pip3] torch==1.13.1\n",
		  "line 3 lists torch 1.13.1, line 1 imports torch 2.0.1" },
		{ "PyTorch version: 2.0.1+cu118\nIs debug build: False\n[pip3] torch==2.0.1+cu118\n[conda] torch 2.0.1 pypi_0 pypi\n", "" },
		{ "torch          2.1.0\n>>> print(torch.__version__, torch.version.cuda)\n2.1.0+cu121 12.1\n", "" },
		{ "pip list shows torchvision 0.15.2\n>>> torch.__version__\n'2.0.1'\n", "" },
		{ "pip list shows torch 2.1.0 and torchvision 0.16.0\n", "" },
		{ "pip list shows pytorch_lightning 1.9.0\n>>> torch.__version__\n'2.0.1'\n", "" },
		{ "pip show intel_extension_for_pytorch: 1.13.100\n>>> torch.__version__\n'2.0.1'\n", "" },
		{ "pip list says PyTorch is 2.2.0\n>>> torch.__version__\n'2.1.0'\n",
		  "line 1 lists torch 2.2.0, line 3 imports torch 2.1.0" },
	};

	(void)state;
	check_named(cases, sizeof(cases) / sizeof(cases[0]), offsetof(struct paste, torch_versions_differ_named));
}

/*
 * An nvidia/cuda image without nvcc: the base and runtime flavours (NVIDIA/nvidia-docker#1160 ran
 * 10.0-cudnn7-runtime-ubuntu18.04); a devel tag, another repository or no flavour in the tag is no such sign.
 */
static void test_cuda_image_named(void **state)
{
	static const struct named_case cases[] = {
		{ "docker run -it --gpus all nvidia/cuda:10.0-cudnn7-runtime-ubuntu18.04 /bin/bash\n",
		  "line 1 uses nvidia/cuda:10.0-cudnn7-runtime-ubuntu18.04, a runtime image (no nvcc)" },
		{ "# Dockerfile\nFROM nvidia/cuda:12.4.1-base-ubuntu22.04\n",
		  "line 2 uses nvidia/cuda:12.4.1-base-ubuntu22.04, a base image (no nvcc)" },
		{ "FROM nvidia/cuda:12.4.1-cudnn-devel-ubuntu22.04\n", "" },
		{ "FROM nvidia/cuda:12.4.1-devel-ubuntu22.04 AS build\nFROM nvidia/cuda:12.4.1-runtime-ubuntu22.04\n",
		  "line 2 uses nvidia/cuda:12.4.1-runtime-ubuntu22.04, a runtime image (no nvcc)" },
		{ "FROM pytorch/pytorch:2.3.0-cuda12.1-cudnn8-runtime\n", "" },
		{ "image: nvidia/cuda:latest\n", "" },
	};

	(void)state;
	check_named(cases, sizeof(cases) / sizeof(cases[0]), offsetof(struct paste, cuda_image_named));
}

/*
 * Where the text says torch is there for another interpreter: an install (layumi/Person_reID_baseline_pytorch
 * #146), or the program running in one place and failing in another (vt-vl-lab/3d-photo-inpainting#37). An
 * install offered as the fix is no such sign (NVIDIA/flownet2-pytorch#142: "resolved now, generally it should
 * work with:" and a list of install commands).
 */
static void test_torch_there_elsewhere(void **state)
{
	static const struct named_case cases[] = {
		{ "But I have tried pip3 install torch /torchvision\n", "line 1 installs torch" },
		{ "I use macOS Catalina, i can run project on pycharm but when i try to run on terminal i get that result:\n",
		  "line 1 runs it in pycharm, not in terminal" },
		{ "I had this issue but resolved now, \n\nGenerally it should work with:\npip install torch\nor\n"
		  "sudo pip install torch\n\nor \npip install torch --user (give single space between torch and -- user)\n\n"
		  "or \npip3 install torch --user\n", "" },
		{ "it runs on the terminal but the GPU is not used\n", "" },
	};

	(void)state;
	check_named(cases, sizeof(cases) / sizeof(cases[0]), offsetof(struct paste, torch_install_named));
}

/*
 * At a Python prompt the line after the question is its answer (pytorch/pytorch#6098's IPython session,
 * pytorch/pytorch#28195's REPL); other lines after a prompt are not.
 */
static void test_repl_answers(void **state)
{
	struct paste *p;

	(void)state;
	p = read_text(">>> torch.__version__\n'2.0.1'\n>>> print(torch.version.cuda)\n11.7\n"
		      "In [2]: torch.cuda.is_available()\nOut[2]: False\n");
	assert_true(paste_saw(p, PASTE_TORCH));
	assert_string_equal(p->facts->python.torches[0].version, "2.0.1");
	assert_string_equal(p->facts->python.torches[0].cuda, "11.7");
	assert_int_equal(p->cuda_available, 0);
	assert_int_equal(p->cuda_available_line, 6);
	paste_free(p);
	/* None: a CPU build, whichever came first */
	p = read_text(">>> torch.version.cuda\nNone\n>>> torch.__version__\n'2.0.1'\n");
	assert_true(paste_saw(p, PASTE_TORCH));
	assert_string_equal(p->facts->python.torches[0].cuda, "");
	paste_free(p);
	/* an answer that is no value of the question, and a value with no question */
	p = read_text(">>> torch.__version__\nTraceback (most recent call last):\n12.1\n");
	assert_false(paste_saw(p, PASTE_TORCH));
	assert_int_equal(p->cuda_available, -1);
	paste_free(p);
}

static void test_run_lines_and_prompt(void **state)
{
	struct paste *p;

	(void)state;
	/* floydhub/dockerfiles#3: no GPU flag */
	p = read_text("$ sudo docker run  -t -i floydhub/pytorch:latest-gpu-py3 ipython\n");
	assert_int_equal(p->run_gpus, 0);
	assert_string_equal(p->run_line, "docker run  -t -i floydhub/pytorch:latest-gpu-py3 ipython");
	paste_free(p);
	/* pytorch/pytorch#18690: nvidia-docker runs with the NVIDIA runtime */
	p = read_text("NV_GPU=0 nvidia-docker run -it --rm pytorch/pytorch:1.0.1-cuda10.0-cudnn7-devel \n");
	assert_int_equal(p->run_gpus, 1);
	paste_free(p);
	/* mattshma/bigdata#108: a plain docker run failed, then nvidia-docker worked: the first one is what failed */
	p = read_text("sudo docker run -p 8888:8888 MY_DOCKER_IMAGE\nsudo nvidia-docker run --rm nvidia/cuda nvidia-smi\n");
	assert_int_equal(p->first_run_gpus, 0);
	assert_string_equal(p->first_run_line, "docker run -p 8888:8888 MY_DOCKER_IMAGE");
	assert_int_equal(p->run_gpus, 1);
	assert_string_equal(p->run_line, "nvidia-docker run --rm nvidia/cuda nvidia-smi");
	paste_free(p);
	/* coder/code-server#922: the host name is the container's id */
	p = read_text("coder@15a2d07c1ad2:~/project$ nvidia-smi\nbash: nvidia-smi: command not found\n");
	assert_true(p->facts->container.in_container);
	assert_true(paste_saw(p, PASTE_CONTAINER));
	assert_string_equal(p->facts->container.evidence,
			    "the prompt coder@15a2d07c1ad2: a container id as the host name (the paste)");
	paste_free(p);
	/* a table row without its header is not read as one */
	p = read_text("|   0  Tesla T4            On   | 00000000:18:00.0 Off |                    0 |\n");
	assert_false(paste_saw(p, PASTE_GPU));
	paste_free(p);
	/* a host name that is not twelve hex digits is no container */
	p = read_text("gojoin@deepro:~/work$ nvidia-smi\n");
	assert_false(p->facts->container.in_container);
	paste_free(p);
}

static void test_kernel_and_driver_files(void **state)
{
	/* microsoft/WSL#6772 (/proc/version), weaviate/Verba#72 (/proc/driver/nvidia/version) */
	static const char text[] =
		"Linux version 5.4.91-microsoft-standard-WSL2 (oe-user@oe-host) (gcc version 9.3.0 (GCC)) #1 SMP Mon Jan 25 "
		"18:39:31 UTC 2021\n"
		"NVRM version: NVIDIA UNIX x86_64 Kernel Module  470.223.02  Sat Oct  7 15:39:11 UTC 2023\n";
	struct paste *p = read_text(text);

	(void)state;
	assert_string_equal(p->facts->system.kernel_release, "5.4.91-microsoft-standard-WSL2");
	assert_true(p->facts->container.wsl);
	assert_int_equal(p->facts->container.wsl_version, 2);
	assert_string_equal(facts_driver_version(p->facts), "470.223.02");
	paste_free(p);
}

static void test_lspci(void **state)
{
	/* RunGp/Nvidiux#4: with a marketing name, and without one (the id alone names it) */
	static const char text[] =
		"02:00.0 VGA compatible controller [0300]: NVIDIA Corporation GF110 [GeForce GTX 570] [10de:1081](rev a1) "
		"(prog-if 00 [VGA controller])\n"
		"01:00.0 VGA compatible controller [0300]: NVIDIA Corporation Device [10de:13c2](rev a1) (prog-if 00 [VGA "
		"controller])\n";
	struct paste *p = read_text(text);

	(void)state;
	assert_int_equal(p->facts->pci.count, 2);
	assert_string_equal(p->facts->pci.gpus[0].address, "0000:02:00.0");
	assert_string_equal(p->facts->pci.gpus[0].name, "GeForce GTX 570");
	assert_int_equal(p->facts->pci.gpus[0].device, 0x1081);
	assert_int_equal(p->facts->pci.gpus[1].device, 0x13c2);
	assert_string_equal(p->facts->pci.gpus[1].cc, "5.2");	/* GTX 970 */
	paste_free(p);
}

static void test_ldconfig(void **state)
{
	/* torch/cutorch#809: `ldconfig -p | grep libcuda`; the 32-bit entries are not a 64-bit Python's */
	static const char text[] =
		"libcudart.so.9.1 (libc6,x86-64) => /opt/cuda/lib64/libcudart.so.9.1\n"
		"libcuda.so.1 (libc6,x86-64) => /usr/lib/libcuda.so.1\n"
		"libcuda.so.1 (libc6) => /usr/lib32/libcuda.so.1\n"
		"libcuda.so (libc6,x86-64) => /usr/lib/libcuda.so\n";
	struct paste *p = read_text(text);

	(void)state;
	assert_true(paste_saw(p, PASTE_LIBS));
	assert_int_equal(p->facts->libs.cuda.count, 1);
	assert_string_equal(p->facts->libs.cuda.candidates[0].path, "/usr/lib/libcuda.so.1");
	assert_int_equal(p->facts->libs.cuda.candidates[0].origin, LIB_FROM_LDCACHE);
	assert_int_equal(p->facts->libs.cuda.status.state, FACT_OK);
	assert_int_equal(p->facts->libs.nvml.status.state, FACT_UNKNOWN);
	paste_free(p);
}

/*
 * The gate for wsl.driver: the rule reads WSL and the loader cache's libcuda.so.1. Lines from two public reports
 * put together for the test (no single report pastes both): /proc/version of WSL 2 from microsoft/WSL#6772, a
 * Linux driver's libcuda in the cache from torch/cutorch#809.
 */
static void test_wsl_driver_gate(void **state)
{
	static const char wsl[] = "Linux version 5.4.91-microsoft-standard-WSL2 (oe-user@oe-host) (gcc version 9.3.0 (GCC)) "
				  "#1 SMP Mon Jan 25 18:39:31 UTC 2021\n";
	static const char lib[] = "libcuda.so.1 (libc6,x86-64) => /usr/lib/libcuda.so.1\n";
	char both[512];
	struct diagnosis d;
	struct paste *p;
	unsigned needs = paste_cause_needs(CAUSE_WSL_DRIVER);

	(void)state;
	str_printf(both, sizeof(both), "%s%s", wsl, lib);
	p = read_text(both);
	assert_int_equal(needs & ~p->seen, 0);
	rules_run(p->facts, &d);
	assert_non_null(findings_get(&d.findings, CAUSE_WSL_DRIVER));
	diagnosis_release(&d);
	paste_free(p);
	/* WSL alone: the cache was not in the paste, so the rule's finding may not be taken */
	p = read_text(wsl);
	assert_int_not_equal(needs & ~p->seen, 0);
	paste_free(p);
	/* a Linux libcuda without WSL: the rule does not fire */
	p = read_text(lib);
	rules_run(p->facts, &d);
	assert_null(findings_get(&d.findings, CAUSE_WSL_DRIVER));
	diagnosis_release(&d);
	paste_free(p);
}

static void test_template_fields(void **state)
{
	/* NVIDIA/numba-cuda#192, as typed under the template's description */
	static const char text[] = "Driver Version: 550.120\nCuda Toolkit: 12.8\n";
	/* the same values in a template's list markup */
	static const char marked[] = "- **Driver Version:** 550.120\n* `nvcc version`: v12.8.61-1\n";
	/* keys that name no one thing, and values that are no version of what the key names */
	static const char none[] = "CUDA version: 12.1\nDriver: 12.1\nnvcc: 12.8x\nToolkit path: /usr/local/cuda-12.8\n"
				   "driver version: 550. and more\n";
	struct paste *p = read_text(text);
	struct diagnosis d;
	bool found = false;

	(void)state;
	assert_string_equal(facts_driver_version(p->facts), "550.120");
	assert_string_equal(p->facts->toolkits.items[0].version, "12.8");
	assert_int_equal(p->first[PASTE_TOOLKIT].number, 2);
	/* CUDA 12.8 wants driver 570: within 12.x minor-version compatibility, so the rule's finding is info */
	rules_run(p->facts, &d);
	for (size_t i = 0; i < d.findings.count; i++)
		if (d.findings.items[i].cause == CAUSE_TOOLKIT_NEWER_THAN_DRIVER) {
			found = true;
			assert_int_equal(d.findings.items[i].severity, SEV_INFO);
		}
	assert_true(found);
	diagnosis_release(&d);
	paste_free(p);

	p = read_text(marked);
	assert_string_equal(facts_driver_version(p->facts), "550.120");
	assert_string_equal(p->facts->toolkits.items[0].version, "12.8.61");
	paste_free(p);

	p = read_text(none);
	assert_false(paste_saw_any(p));
	paste_free(p);
}

/*
 * Versions stated in a sentence: GoogleCloudPlatform/compute-gpu-installation#42 names the toolkit, the
 * driver the toolkit requires and the driver the script installs in one sentence; only the last is the
 * machine's. The requirement forms below follow NVIDIA's release notes ("requires ... >= 525.60.13") and
 * the wording of upgrade advice; a report always wins over a sentence.
 */
static void test_prose_versions(void **state)
{
	static const char gcp[] = "It appears the CUDA toolkit version installed (12.5) requires driver version 555.42.02, "
				  "wherease the script installs driver version 550.90.07. This causes programs compiled with "
				  "nvcc/ptxas to fail with a 222 error code. Upgrading the NVIDIA driver version to "
				  "555.42.02 fixes the issue\n";
	static const char *const wanted[] = {
		"CUDA 12.0 requires driver >= 525.60.13\n",
		"you need NVIDIA driver 525.60.13 or newer\n",
		"upgrade the driver to 550.54.14\n",
		"the minimum driver version is 450.80.02\n",
		"a driver 535.104.05+ is needed\n",
		"需要驱动版本 525.60.13 以上\n",
		"my subdriver 123.45 and the driver version 12.5\n",
	};
	struct paste *p = read_text(gcp);

	(void)state;
	assert_string_equal(facts_driver_version(p->facts), "550.90.07");
	assert_int_equal(p->first[PASTE_DRIVER].number, 1);
	assert_string_equal(p->facts->toolkits.items[0].version, "12.5");
	paste_free(p);

	p = read_text("My nvidia driver version is 384.111\n\xe9\xa9\xb1\xe5\x8a\xa8\xe7\x89\x88\xe6\x9c\xac\xe6\x98\xaf" "470.82.01\n");
	assert_string_equal(facts_driver_version(p->facts), "384.111");
	paste_free(p);
	p = read_text("\xe9\xa9\xb1\xe5\x8a\xa8\xe7\x89\x88\xe6\x9c\xac\xe6\x98\xaf" "470.82.01\n");
	assert_string_equal(facts_driver_version(p->facts), "470.82.01");
	paste_free(p);

	for (size_t i = 0; i < sizeof(wanted) / sizeof(wanted[0]); i++) {
		p = read_text(wanted[i]);
		if (paste_saw_any(p))
			fail_msg("\"%s\": read as the machine's version", wanted[i]);
		paste_free(p);
	}

	/* nvidia-smi's header later in the paste wins over the sentence before it */
	p = read_text("my driver is 470.82.01\n| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2     |\n");
	assert_string_equal(facts_driver_version(p->facts), "535.104.05");
	assert_int_equal(p->first[PASTE_DRIVER].number, 2);
	paste_free(p);
}

static void test_gate_table(void **state)
{
	(void)state;
	/* conclusions of absence are never taken from a paste */
	assert_int_equal(paste_cause_needs(CAUSE_GPU_NONE), 0);
	assert_int_equal(paste_cause_needs(CAUSE_DRIVER_NOT_INSTALLED), 0);
	assert_int_equal(paste_cause_needs(CAUSE_TORCH_NOT_INSTALLED), 0);
	assert_int_equal(paste_cause_needs(CAUSE_TORCH_DRIVER_TOO_OLD), (1u << PASTE_TORCH) | (1u << PASTE_DRIVER));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_collect_env_cu121_driver_470),
		cmocka_unit_test(test_collect_env_cpu_build),
		cmocka_unit_test(test_pip_lines_tag_the_build),
		cmocka_unit_test(test_nvcc_smi_list_and_print),
		cmocka_unit_test(test_smi_table_header),
		cmocka_unit_test(test_dmesg_xid),
		cmocka_unit_test(test_prose_is_no_report),
		cmocka_unit_test(test_smi_tables),
		cmocka_unit_test(test_smi_memory_and_processes),
		cmocka_unit_test(test_wsl_named_in_prose),
		cmocka_unit_test(test_run_lines_and_prompt),
		cmocka_unit_test(test_kernel_and_driver_files),
		cmocka_unit_test(test_lspci),
		cmocka_unit_test(test_ldconfig),
		cmocka_unit_test(test_wsl_driver_gate),
		cmocka_unit_test(test_gate_table),
		cmocka_unit_test(test_template_fields),
		cmocka_unit_test(test_prose_versions),
		cmocka_unit_test(test_container_named_in_prose),
		cmocka_unit_test(test_notebook_named),
		cmocka_unit_test(test_sudo_python_named),
		cmocka_unit_test(test_cudnn_on_ld_library_path),
		cmocka_unit_test(test_visible_devices_set),
		cmocka_unit_test(test_nouveau_blacklist_named),
		cmocka_unit_test(test_toolkit_installed_said),
		cmocka_unit_test(test_graphics_client_named),
		cmocka_unit_test(test_gpu_named),
		cmocka_unit_test(test_cuda_image_named),
		cmocka_unit_test(test_torch_versions_differ),
		cmocka_unit_test(test_torch_there_elsewhere),
		cmocka_unit_test(test_repl_answers),
	};

	return cmocka_run_group_tests_name("paste", tests, NULL, NULL);
}
