import AppleData
import ReconModel

/// The tables of Apple's money as Apple states it (CONTRACT §1.9): Financial Reports and payment summaries.
extension Schema {
    /// One imported Financial Report per fiscal period, region and region currency (a re-import
    /// replaces it), with every row (paid apps too: the month close sums the whole report), and
    /// the payment summaries per fiscal month (a re-import replaces the month) with their regions.
    ///
    /// Money is milliunits; days are days since 1970-01-01 of Apple's printed dates.
    package static let financialReports = """
        CREATE TABLE financial_reports (
            report_id INTEGER PRIMARY KEY,
            period_start INTEGER NOT NULL,
            period_end INTEGER NOT NULL,
            region TEXT NOT NULL,
            currency TEXT NOT NULL,
            source_file TEXT NOT NULL,
            imported_at INTEGER NOT NULL,
            UNIQUE (period_start, period_end, region, currency)
        );

        CREATE TABLE financial_report_rows (
            id INTEGER PRIMARY KEY,
            report_id INTEGER NOT NULL REFERENCES financial_reports(report_id) ON DELETE CASCADE,
            product_id TEXT NOT NULL,
            product_type TEXT NOT NULL,
            country_code TEXT NOT NULL,
            quantity INTEGER NOT NULL,
            partner_share_milli INTEGER NOT NULL,
            extended_partner_share_milli INTEGER NOT NULL,
            partner_share_currency TEXT NOT NULL,
            is_return INTEGER NOT NULL,
            customer_price_milli INTEGER NOT NULL,
            customer_currency TEXT NOT NULL,
            source_line INTEGER NOT NULL
        );
        CREATE INDEX financial_report_rows_by_report ON financial_report_rows(report_id);

        CREATE TABLE payment_summaries (
            fiscal_year INTEGER NOT NULL,
            fiscal_month INTEGER NOT NULL,
            total_paid_milli INTEGER,
            bank_currency TEXT,
            source_file TEXT NOT NULL,
            imported_at INTEGER NOT NULL,
            PRIMARY KEY (fiscal_year, fiscal_month)
        );

        CREATE TABLE payment_regions (
            fiscal_year INTEGER NOT NULL,
            fiscal_month INTEGER NOT NULL,
            region TEXT NOT NULL,
            currency TEXT NOT NULL,
            units_sold INTEGER NOT NULL,
            earned_milli INTEGER NOT NULL,
            pre_tax_subtotal_milli INTEGER NOT NULL,
            input_tax_milli INTEGER NOT NULL,
            adjustments_milli INTEGER NOT NULL,
            withholding_tax_milli INTEGER NOT NULL,
            total_owed_milli INTEGER NOT NULL,
            exchange_rate TEXT NOT NULL,
            proceeds_milli INTEGER NOT NULL,
            bank_currency TEXT NOT NULL,
            source_line INTEGER NOT NULL,
            PRIMARY KEY (fiscal_year, fiscal_month, region, currency),
            FOREIGN KEY (fiscal_year, fiscal_month) REFERENCES payment_summaries(fiscal_year, fiscal_month)
                ON DELETE CASCADE
        );

        ALTER TABLE products ADD COLUMN proceeds_milli INTEGER;
        """
}
