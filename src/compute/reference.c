/*
 * reference.c - what the kernels must produce, computed on the host, and
 * the conversions that make FP16/BF16 input for cuBLAS.
 */
#include "compute/compute_internal.h"

#include <math.h>
#include <string.h>

/* The word the gd_pattern kernel writes at index i (kernels.ptx); the two must change together. */
unsigned compute_pattern_word(unsigned i, unsigned seed)
{
	return (i ^ seed) * 0x9E3779B1u + (i >> 3);
}

/* gd_sgemm's order exactly: k ascending, one fused multiply-add each, so results agree bit for bit. */
void compute_sgemm_reference(const float *a, const float *b, float *c, unsigned n)
{
	for (unsigned row = 0; row < n; row++)
		for (unsigned col = 0; col < n; col++) {
			float acc = 0.0f;

			for (unsigned k = 0; k < n; k++)
				acc = fmaf(a[(size_t)row * n + k], b[(size_t)k * n + col], acc);
			c[(size_t)row * n + col] = acc;
		}
}

/* See compute_internal.h. The state must not start at 0: xorshift stays at 0, and every value is -1. */
float rng_float(struct rng *r)
{
	unsigned long long x = r->state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	r->state = x;
	/* the top 24 bits, as a float in [-1, 1) */
	return (float)((long)((x * 0x2545F4914F6CDD1DULL) >> 40) - (1L << 23)) / (float)(1L << 23);
}

/* IEEE half, round to nearest even; our inputs are in [-1, 1], so no overflow handling is needed beyond infinity. */
unsigned short compute_float_to_half(float f)
{
	unsigned x, sign, mant;
	int exp;

	memcpy(&x, &f, 4);
	sign = (x >> 16) & 0x8000u;
	exp = (int)((x >> 23) & 0xff) - 127 + 15;
	mant = x & 0x7fffffu;
	if (((x >> 23) & 0xff) == 0xff)
		return (unsigned short)(sign | 0x7c00u | (mant ? 0x200u : 0));
	if (exp >= 31)
		return (unsigned short)(sign | 0x7c00u);
	if (exp <= 0) {
		unsigned shift;

		if (exp < -10)
			return (unsigned short)sign;
		mant |= 0x800000u;
		shift = (unsigned)(14 - exp);
		{
			unsigned half = mant >> shift, rem = mant & ((1u << shift) - 1), mid = 1u << (shift - 1);

			if (rem > mid || (rem == mid && (half & 1)))
				half++;
			return (unsigned short)(sign | half);
		}
	}
	{
		unsigned half = sign | ((unsigned)exp << 10) | (mant >> 13), rem = mant & 0x1fffu;

		if (rem > 0x1000u || (rem == 0x1000u && (half & 1)))
			half++;	/* a carry into the exponent is the correct rounding */
		return (unsigned short)half;
	}
}

/* Round to nearest even; a NaN stays a (quiet) NaN, and an overflow becomes infinity. */
unsigned short compute_float_to_bf16(float f)
{
	unsigned x;

	memcpy(&x, &f, 4);
	if ((x & 0x7fffffffu) > 0x7f800000u)
		return (unsigned short)((x >> 16) | 0x40);	/* NaN stays NaN */
	x += 0x7fffu + ((x >> 16) & 1);			/* round to nearest even */
	return (unsigned short)(x >> 16);
}
