#ifndef IAPRECON_CXLSXWRITER_SHIM_H
#define IAPRECON_CXLSXWRITER_SHIM_H
#include <xlsxwriter.h>
#endif
