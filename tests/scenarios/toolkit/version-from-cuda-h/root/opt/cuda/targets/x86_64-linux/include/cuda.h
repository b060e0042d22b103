/* excerpt */
#define CUDA_VERSION 12030 /* 12.3 */
