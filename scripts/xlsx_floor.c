/*
 * xlsx_floor OUT.xlsx CELLS...: writes each CELLS file (from xlsx_floor_cells.py) into a sheet of one
 * workbook with libxlsxwriter alone, row by row (constant memory, inline strings), as iap-recon writes its
 * streamed sheets. What this takes is the least any report writing the same cells with libxlsxwriter can
 * take: the sheet XML, the temporary files and the zip's deflate at libxlsxwriter's fixed level.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xlsxwriter.h>

#define FORMATS 64

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: xlsx_floor OUT.xlsx CELLS...\n");
        return 2;
    }
    lxw_workbook_options options = {.constant_memory = LXW_TRUE, .tmpdir = NULL, .use_zip64 = LXW_TRUE};
    lxw_workbook *workbook = workbook_new_opt(argv[1], &options);
    if (!workbook) return 1;
    /* One format per style index the cells name: a number format each, as the report's money and dates. */
    lxw_format *formats[FORMATS] = {0};
    for (int i = 1; i < FORMATS; i++) {
        formats[i] = workbook_add_format(workbook);
        format_set_num_format(formats[i], i % 2 ? "#,##0.00 \"USD\"" : "yyyy-mm-dd hh:mm:ss");
    }
    char *line = NULL;
    size_t capacity = 0;
    for (int f = 2; f < argc; f++) {
        char name[32];
        snprintf(name, sizeof name, "Sheet%d", f - 1);
        lxw_worksheet *sheet = workbook_add_worksheet(workbook, name);
        FILE *in = fopen(argv[f], "r");
        if (!sheet || !in) {
            fprintf(stderr, "xlsx_floor: cannot read %s\n", argv[f]);
            return 1;
        }
        lxw_row_t row = 0;
        ssize_t length;
        while ((length = getline(&line, &capacity, in)) > 0) {
            if (line[length - 1] == '\n') line[length - 1] = 0;
            lxw_col_t column = 0;
            for (char *cell = line; cell; column++) {
                char *next = strchr(cell, '\x1f');
                if (next) *next++ = 0;
                if (cell[0] == 's') {
                    worksheet_write_string(sheet, row, column, cell + 2, NULL);
                } else if (cell[0] == 'n') {
                    int style = atoi(cell + 1);
                    worksheet_write_number(sheet, row, column, strtod(strchr(cell, ':') + 1, NULL),
                                           formats[style % FORMATS]);
                }
                cell = next;
            }
            row++;
        }
        fclose(in);
    }
    free(line);
    return workbook_close(workbook) == LXW_NO_ERROR ? 0 : 1;
}
