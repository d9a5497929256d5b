// Rows of a bulk file as the tests send them: row i's reference is a UUID ending in i.

export const bulkReference = (i: number) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;

/** A valid NGN bank row, its destination account and name numbered by i. */
export const bulkRow = (i: number) => ({
  reference: bulkReference(i),
  amount: 150000 + i,
  currency: 'NGN',
  type: 'BANK',
  source: { accountNumber: '1000200030' },
  destination: { accountNumber: `01${String(i).padStart(8, '0')}`, accountName: `Worker ${i}`, bankCode: '058' },
  category: 'SALARY',
});

/** A payroll row as exports write them: a long name and a narration, row i numbered throughout. */
export const payrollRow = (i: number) => ({
  ...bulkRow(i),
  destination: { accountNumber: `01${String(i).padStart(8, '0')}`, accountName: `Oluwaseun Adebayo-Williams ${i}`, bankCode: '058' },
  narrations: `Salary for January 2026, employee ${i}`,
});
